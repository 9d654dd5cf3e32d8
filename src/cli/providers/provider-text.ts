/**
 * The provider detection's words, per locale: the `-v` lines and the errors. The list of ways in is
 * the same in both languages and names every variable exactly, so it can be copied into a shell.
 */
import { invocation } from "../../locale/invocation.js";
import type { Locale } from "../../locale/locale.js";

interface ShownCredential {
  source: string;
  shown: string;
}

export interface ProviderText {
  /** The refusal when nothing is configured; `oauthTokenSet` adds why a subscription token is not used. */
  nothingConfigured: (oauthTokenSet: boolean) => string;
  incomplete: (label: string, missing: readonly string[]) => string;
  providerLine: (label: string) => string;
  endpointLine: (url: string) => string;
  regionLine: (region: string) => string;
  projectLine: (project: string) => string;
  workspaceIdLine: (id: string) => string;
  resourceLine: (resource: string) => string;
  modelLine: (model: string) => string;
  credentialLine: (credential: ShownCredential) => string;
}

/** One line per way in: the name, then what to set. */
const WAYS_IN: ReadonlyArray<readonly [string, string]> = [
  ["Anthropic API", "ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN (+ ANTHROPIC_BASE_URL for a gateway)"],
  ["apiKeyHelper", '"apiKeyHelper" in ~/.claude/settings.json or $CLAUDE_CONFIG_DIR/settings.json'],
  [
    "Amazon Bedrock",
    "CLAUDE_CODE_USE_BEDROCK=1 + AWS_PROFILE, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or AWS_BEARER_TOKEN_BEDROCK; AWS_REGION",
  ],
  [
    "Google Vertex AI",
    "CLAUDE_CODE_USE_VERTEX=1 + ANTHROPIC_VERTEX_PROJECT_ID, CLOUD_ML_REGION; gcloud ADC or GOOGLE_APPLICATION_CREDENTIALS",
  ],
  [
    "Microsoft Foundry",
    "CLAUDE_CODE_USE_FOUNDRY=1 + ANTHROPIC_FOUNDRY_RESOURCE (or ANTHROPIC_FOUNDRY_BASE_URL); ANTHROPIC_FOUNDRY_API_KEY or Azure login",
  ],
  [
    "Claude Platform on AWS",
    "CLAUDE_CODE_USE_ANTHROPIC_AWS=1 + ANTHROPIC_AWS_WORKSPACE_ID; AWS credentials or ANTHROPIC_AWS_API_KEY",
  ],
  [
    "Claude Platform on Google Cloud",
    "CLAUDE_CODE_USE_ANTHROPIC_GOOGLE_CLOUD=1 + ANTHROPIC_GOOGLE_CLOUD_PROJECT; gcloud ADC",
  ],
];

function waysIn(indent: string): string[] {
  const width = Math.max(...WAYS_IN.map(([name]) => name.length));
  return WAYS_IN.map(([name, what]) => `${indent}${name.padEnd(width)}  ${what}`);
}

/** How a credential is shown on the `-v` line, per locale. */
function credential(locale: Locale, { source, shown }: ShownCredential): string {
  const chain: Record<string, Record<Locale, string>> = {
    "aws-default-chain": {
      en: "AWS default chain (~/.aws, SSO, instance role)",
      zh: "AWS 默认凭证链(~/.aws、SSO、实例角色)",
    },
    "gcloud-application-default": {
      en: "gcloud application-default credentials",
      zh: "gcloud application-default 凭证",
    },
    "azure-default-credential": {
      en: "Azure default credential (az login, managed identity)",
      zh: "Azure 默认凭证(az login、托管身份)",
    },
  };
  const named = chain[source];
  if (named) return named[locale];
  if (source.startsWith("CLAUDE_CODE_SKIP_")) {
    return locale === "zh" ? `跳过认证 (${source})` : `auth skipped (${source})`;
  }
  return shown ? `${shown} (${source})` : source;
}

export const PROVIDER_TEXT: Readonly<Record<Locale, ProviderText>> = {
  en: {
    nothingConfigured: (oauthTokenSet) =>
      [
        "flower: no way to reach Claude is configured. Set one of:",
        ...waysIn("  "),
        ...(oauthTokenSet
          ? [
              "CLAUDE_CODE_OAUTH_TOKEN (a claude.ai subscription login) is not used: products built on the Agent SDK use an API key or a cloud provider.",
            ]
          : []),
        `Or see it all run offline first, with no key: ${invocation()} demo`,
      ].join("\n"),
    incomplete: (label, missing) => `flower: ${label} is chosen but ${missing.join(" or ")} is not set.`,
    providerLine: (label) => `provider  ${label}`,
    endpointLine: (url) => `endpoint  ${url}`,
    regionLine: (region) => `region    ${region}`,
    projectLine: (project) => `project   ${project}`,
    workspaceIdLine: (id) => `workspace id ${id}`,
    resourceLine: (resource) => `resource  ${resource}`,
    modelLine: (model) => `model     ${model}`,
    credentialLine: (shown) => `auth      ${credential("en", shown)}`,
  },
  zh: {
    nothingConfigured: (oauthTokenSet) =>
      [
        "flower: 没有配置任何连到 Claude 的方式。请设置下面其中一种:",
        ...waysIn("  "),
        ...(oauthTokenSet
          ? [
              "不使用 CLAUDE_CODE_OAUTH_TOKEN(claude.ai 订阅登录):基于 Agent SDK 的产品用 API key 或云服务商。",
            ]
          : []),
        `或者先不用 key 离线看一遍完整过程: ${invocation()} demo`,
      ].join("\n"),
    incomplete: (label, missing) => `flower: 选了 ${label},但没有设置 ${missing.join(" 或 ")}。`,
    providerLine: (label) => `服务商  ${label}`,
    endpointLine: (url) => `端点    ${url}`,
    regionLine: (region) => `区域    ${region}`,
    projectLine: (project) => `项目    ${project}`,
    workspaceIdLine: (id) => `工作空间 ${id}`,
    resourceLine: (resource) => `资源    ${resource}`,
    modelLine: (model) => `模型    ${model}`,
    credentialLine: (shown) => `凭证    ${credential("zh", shown)}`,
  },
};
