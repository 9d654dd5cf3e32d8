import { describe, expect, it } from "vitest";
import { maskSecret, redactUrl } from "../../../src/cli/providers/provider-credentials.js";
import { chosenProvider, isFlagOn } from "../../../src/cli/providers/provider-flags.js";
import {
  IncompleteProviderError,
  NoProviderError,
  describeProvider,
  detectProvider,
  type Provider,
} from "../../../src/cli/providers/providers.js";
import { FlowerError } from "../../../src/errors.js";

describe("maskSecret", () => {
  it("shows the first 4 characters and a fixed-length mask", () => {
    expect(maskSecret("sk-ant-api03-abcdefghijklmnop")).toBe("sk-a****");
    expect(maskSecret("AKIAIOSFODNN7EXAMPLE")).toBe("AKIA****");
    // The mask does not grow with the secret.
    expect(maskSecret("x".repeat(200))).toBe("xxxx****");
  });

  it("shows nothing of a short secret, and says (none) for a missing one", () => {
    expect(maskSecret("12345678")).toBe("****");
    expect(maskSecret("123456789")).toBe("1234****");
    expect(maskSecret("")).toBe("(none)");
    expect(maskSecret(null)).toBe("(none)");
    expect(maskSecret(undefined)).toBe("(none)");
  });

  it("counts characters, not UTF-16 units", () => {
    expect(maskSecret("🔑🔑🔑🔑🔑🔑🔑🔑🔑")).toBe("🔑🔑🔑🔑****");
  });
});

describe("redactUrl", () => {
  it("hides user info and leaves a plain URL alone", () => {
    expect(redactUrl("https://gw.example.com/v1")).toBe("https://gw.example.com/v1");
    expect(redactUrl("https://alice:s3cret@gw.example.com/v1")).toBe("https://***@gw.example.com/v1");
    expect(redactUrl("gw:s3cret@host")).not.toContain("s3cret");
  });
});

describe("isFlagOn", () => {
  it("takes the binary's truthy words in any case", () => {
    for (const on of ["1", "true", "TRUE", "yes", "On", " 1 "]) expect(isFlagOn(on)).toBe(true);
    for (const off of [undefined, "", "0", "false", "no", "off", "2", "y"]) expect(isFlagOn(off)).toBe(false);
  });
});

describe("detectProvider", () => {
  it("reads an Anthropic API key, masked, with the public endpoint", () => {
    const provider = detectProvider({ ANTHROPIC_API_KEY: "sk-ant-api03-secretsecret" });
    expect(provider).toEqual<Provider>({
      provider: "anthropic",
      label: "Anthropic API",
      model: "default",
      credential: { source: "ANTHROPIC_API_KEY", shown: "sk-a****" },
    });
    expect(JSON.stringify(provider)).not.toContain("secretsecret");
  });

  it("prefers the API key over an auth token, and shows a gateway", () => {
    const both = detectProvider({
      ANTHROPIC_API_KEY: "key-0000000000",
      ANTHROPIC_AUTH_TOKEN: "tok-0000000000",
      ANTHROPIC_BASE_URL: "https://user:pw@gateway.corp/anthropic",
    });
    expect(both.credential.source).toBe("ANTHROPIC_API_KEY");
    expect(both.endpoint).toBe("https://***@gateway.corp/anthropic");
    const token = detectProvider({ ANTHROPIC_AUTH_TOKEN: "tok-0000000000", ANTHROPIC_API_KEY: "  " });
    expect(token.credential).toEqual({ source: "ANTHROPIC_AUTH_TOKEN", shown: "tok-****" });
  });

  it("takes the model from --model, then ANTHROPIC_MODEL", () => {
    const env = { ANTHROPIC_API_KEY: "sk-ant-0000000", ANTHROPIC_MODEL: "claude-sonnet-5" };
    expect(detectProvider(env).model).toBe("claude-sonnet-5");
    expect(detectProvider(env, { model: "opus" }).model).toBe("opus");
  });

  it("uses an apiKeyHelper from the settings when no key is set, masked like a key", () => {
    const provider = detectProvider({}, { settings: { apiKeyHelper: "~/bin/get-anthropic-key --team a" } });
    expect(provider.provider).toBe("anthropic");
    expect(provider.credential).toEqual({ source: "apiKeyHelper", shown: "~/bi****" });
    // A key in the environment still wins, as it does in the binary's precedence for -v purposes.
    expect(
      detectProvider({ ANTHROPIC_API_KEY: "sk-ant-0000000" }, { settings: { apiKeyHelper: "helper-cmd" } })
        .credential.source,
    ).toBe("ANTHROPIC_API_KEY");
  });

  it("applies the settings' env block over the environment, as the child does", () => {
    const provider = detectProvider(
      { AWS_REGION: "eu-west-1" },
      { settings: { env: { CLAUDE_CODE_USE_BEDROCK: "1", AWS_REGION: "us-west-2", AWS_PROFILE: "dev" } } },
    );
    expect(provider).toMatchObject({ provider: "bedrock", region: "us-west-2" });
    expect(provider.credential).toEqual({ source: "AWS_PROFILE", shown: "dev" });
  });

  describe("Amazon Bedrock", () => {
    const on = { CLAUDE_CODE_USE_BEDROCK: "1" };

    it("reads region and the credential in the AWS chain's order", () => {
      expect(
        detectProvider({
          ...on,
          AWS_DEFAULT_REGION: "eu-central-1",
          AWS_BEARER_TOKEN_BEDROCK: "ABSKbedrockbearertoken",
          AWS_ACCESS_KEY_ID: "AKIAIOSFODNN7EXAMPLE",
          AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG",
        }),
      ).toEqual<Provider>({
        provider: "bedrock",
        label: "Amazon Bedrock",
        region: "eu-central-1",
        model: "default",
        credential: { source: "AWS_BEARER_TOKEN_BEDROCK", shown: "ABSK****" },
      });
      const keys = detectProvider({
        ...on,
        AWS_REGION: "us-west-2",
        AWS_DEFAULT_REGION: "eu-central-1",
        AWS_ACCESS_KEY_ID: "AKIAIOSFODNN7EXAMPLE",
        AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG",
        AWS_PROFILE: "dev",
      });
      expect(keys.region).toBe("us-west-2");
      expect(keys.credential).toEqual({ source: "AWS_ACCESS_KEY_ID", shown: "AKIA****" });
      expect(JSON.stringify(keys)).not.toContain("wJalr");
    });

    it("an access key without its secret does not count", () => {
      expect(
        detectProvider({ ...on, AWS_ACCESS_KEY_ID: "AKIAIOSFODNN7EXAMPLE", AWS_PROFILE: "dev" }).credential,
      ).toEqual({ source: "AWS_PROFILE", shown: "dev" });
    });

    it("knows web identity, container credentials and the default chain, and the default region", () => {
      expect(
        detectProvider({
          ...on,
          AWS_WEB_IDENTITY_TOKEN_FILE: "/var/run/token",
          AWS_ROLE_ARN: "arn:aws:iam::1:role/r",
        }).credential,
      ).toEqual({ source: "AWS_WEB_IDENTITY_TOKEN_FILE", shown: "/var/run/token" });
      expect(
        detectProvider({ ...on, AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: "/v2/credentials/x" }).credential
          .source,
      ).toBe("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
      expect(detectProvider({ ...on, CLAUDE_CODE_SKIP_BEDROCK_AUTH: "1" }).credential.source).toBe(
        "CLAUDE_CODE_SKIP_BEDROCK_AUTH",
      );
      const chain = detectProvider(on);
      expect(chain.credential).toEqual({ source: "aws-default-chain", shown: "" });
      expect(chain.region).toBe("us-east-1");
    });

    it("wins over every other flag and over an Anthropic key", () => {
      expect(
        chosenProvider({
          CLAUDE_CODE_USE_VERTEX: "1",
          CLAUDE_CODE_USE_FOUNDRY: "1",
          CLAUDE_CODE_USE_BEDROCK: "true",
          ANTHROPIC_API_KEY: "sk",
        }),
      ).toBe("bedrock");
      expect(chosenProvider({ CLAUDE_CODE_USE_BEDROCK: "0", CLAUDE_CODE_USE_VERTEX: "1" })).toBe("vertex");
      expect(chosenProvider({ CLAUDE_CODE_USE_FOUNDRY: "1", CLAUDE_CODE_USE_ANTHROPIC_AWS: "1" })).toBe(
        "foundry",
      );
      expect(chosenProvider({ CLAUDE_CODE_USE_VERTEX: "1", CLAUDE_CODE_USE_ANTHROPIC_AWS: "1" })).toBe(
        "anthropic-aws",
      );
    });
  });

  describe("Google Vertex AI", () => {
    it("reads project and region, with the binary's default region", () => {
      expect(
        detectProvider({
          CLAUDE_CODE_USE_VERTEX: "1",
          ANTHROPIC_VERTEX_PROJECT_ID: "my-project",
          CLOUD_ML_REGION: "europe-west1",
          GOOGLE_APPLICATION_CREDENTIALS: "/keys/sa.json",
          ANTHROPIC_MODEL: "claude-opus-5-5",
        }),
      ).toEqual<Provider>({
        provider: "vertex",
        label: "Google Vertex AI",
        region: "europe-west1",
        project: "my-project",
        model: "claude-opus-5-5",
        credential: { source: "GOOGLE_APPLICATION_CREDENTIALS", shown: "/keys/sa.json" },
      });
      const adc = detectProvider({ CLAUDE_CODE_USE_VERTEX: "yes", GOOGLE_CLOUD_PROJECT: "gp" });
      expect(adc).toMatchObject({ region: "us-east5", project: "gp" });
      expect(adc.credential).toEqual({ source: "gcloud-application-default", shown: "" });
    });
  });

  describe("Microsoft Foundry", () => {
    it("reads the resource and the API key", () => {
      expect(
        detectProvider({
          CLAUDE_CODE_USE_FOUNDRY: "1",
          ANTHROPIC_FOUNDRY_RESOURCE: "team-ai",
          ANTHROPIC_FOUNDRY_API_KEY: "f0undrykeyvalue",
        }),
      ).toEqual<Provider>({
        provider: "foundry",
        label: "Microsoft Foundry",
        resource: "team-ai",
        model: "default",
        credential: { source: "ANTHROPIC_FOUNDRY_API_KEY", shown: "f0un****" },
      });
    });

    it("takes a base URL instead of a resource, and Azure's own login without a key", () => {
      const provider = detectProvider({
        CLAUDE_CODE_USE_FOUNDRY: "1",
        ANTHROPIC_FOUNDRY_BASE_URL: "https://team-ai.services.ai.azure.com/anthropic",
      });
      expect(provider.endpoint).toBe("https://team-ai.services.ai.azure.com/anthropic");
      expect(provider.credential.source).toBe("azure-default-credential");
    });

    it("refuses without a resource or base URL, naming both", () => {
      const attempt = () => detectProvider({ CLAUDE_CODE_USE_FOUNDRY: "1", ANTHROPIC_FOUNDRY_API_KEY: "k" });
      expect(attempt).toThrow(IncompleteProviderError);
      expect(attempt).toThrow(/Microsoft Foundry.*ANTHROPIC_FOUNDRY_RESOURCE or ANTHROPIC_FOUNDRY_BASE_URL/);
    });
  });

  describe("Claude Platform on AWS", () => {
    it("needs the workspace id, and takes its API key or AWS credentials", () => {
      expect(
        detectProvider({
          CLAUDE_CODE_USE_ANTHROPIC_AWS: "1",
          ANTHROPIC_AWS_WORKSPACE_ID: "wrkspc_01",
          ANTHROPIC_AWS_API_KEY: "aws-platform-key",
          AWS_REGION: "us-west-2",
        }),
      ).toEqual<Provider>({
        provider: "anthropic-aws",
        label: "Claude Platform on AWS",
        region: "us-west-2",
        workspace: "wrkspc_01",
        model: "default",
        credential: { source: "ANTHROPIC_AWS_API_KEY", shown: "aws-****" },
      });
      expect(
        detectProvider({
          CLAUDE_CODE_USE_ANTHROPIC_AWS: "1",
          ANTHROPIC_AWS_WORKSPACE_ID: "w",
          AWS_PROFILE: "prod",
        }).credential,
      ).toEqual({ source: "AWS_PROFILE", shown: "prod" });
      let error: unknown;
      try {
        detectProvider({ CLAUDE_CODE_USE_ANTHROPIC_AWS: "1", AWS_PROFILE: "prod" }, { locale: "zh" });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(IncompleteProviderError);
      expect((error as IncompleteProviderError).missing).toEqual(["ANTHROPIC_AWS_WORKSPACE_ID"]);
      expect((error as Error).message).toContain("ANTHROPIC_AWS_WORKSPACE_ID");
      expect((error as Error).message).toContain("选了");
    });
  });

  it("knows Claude Platform on Google Cloud and Bedrock's Mantle endpoint", () => {
    expect(
      detectProvider({
        CLAUDE_CODE_USE_ANTHROPIC_GOOGLE_CLOUD: "1",
        ANTHROPIC_GOOGLE_CLOUD_PROJECT: "p",
        ANTHROPIC_GOOGLE_CLOUD_WORKSPACE_ID: "w",
      }),
    ).toMatchObject({ provider: "anthropic-google-cloud", project: "p", workspace: "w", region: "global" });
    expect(detectProvider({ CLAUDE_CODE_USE_MANTLE: "1", AWS_REGION: "us-east-2" })).toMatchObject({
      provider: "mantle",
      label: "Amazon Bedrock (Mantle)",
      region: "us-east-2",
    });
  });

  describe("nothing configured", () => {
    const everyWayIn = [
      "ANTHROPIC_API_KEY",
      "ANTHROPIC_AUTH_TOKEN",
      "ANTHROPIC_BASE_URL",
      "apiKeyHelper",
      "CLAUDE_CONFIG_DIR",
      "CLAUDE_CODE_USE_BEDROCK=1",
      "AWS_PROFILE",
      "AWS_BEARER_TOKEN_BEDROCK",
      "AWS_REGION",
      "CLAUDE_CODE_USE_VERTEX=1",
      "ANTHROPIC_VERTEX_PROJECT_ID",
      "CLOUD_ML_REGION",
      "GOOGLE_APPLICATION_CREDENTIALS",
      "CLAUDE_CODE_USE_FOUNDRY=1",
      "ANTHROPIC_FOUNDRY_RESOURCE",
      "ANTHROPIC_FOUNDRY_API_KEY",
      "CLAUDE_CODE_USE_ANTHROPIC_AWS=1",
      "ANTHROPIC_AWS_WORKSPACE_ID",
      "CLAUDE_CODE_USE_ANTHROPIC_GOOGLE_CLOUD=1",
      "flower demo",
    ];

    it.each(["en", "zh"] as const)("lists every way in (%s), as a usage error", (locale) => {
      let error: unknown;
      try {
        detectProvider({ ANTHROPIC_API_KEY: "", CLAUDE_CODE_USE_BEDROCK: "0" }, { locale });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(NoProviderError);
      expect(error).toBeInstanceOf(FlowerError);
      expect((error as FlowerError).code).toBe("usage");
      const message = (error as Error).message;
      for (const word of everyWayIn) expect(message).toContain(word);
      expect(message).toContain(locale === "zh" ? "没有配置" : "no way to reach Claude");
    });

    it("never offers a subscription login, and says why a subscription token is not used", () => {
      const plain = () => detectProvider({});
      expect(plain).toThrow(NoProviderError);
      expect(plain).not.toThrow(/claude\.ai|OAUTH|subscription/i);
      const withToken = () => detectProvider({ CLAUDE_CODE_OAUTH_TOKEN: "sk-ant-oat01-xyz" });
      expect(withToken).toThrow(/CLAUDE_CODE_OAUTH_TOKEN .*is not used/);
      expect(withToken).not.toThrow(/sk-ant-oat01/);
    });
  });
});

describe("describeProvider", () => {
  it("prints the provider, its place, the model and a masked credential", () => {
    const lines = describeProvider(
      detectProvider({
        CLAUDE_CODE_USE_VERTEX: "1",
        ANTHROPIC_VERTEX_PROJECT_ID: "my-project",
        CLOUD_ML_REGION: "europe-west1",
      }),
      "en",
    );
    expect(lines).toEqual([
      "provider  Google Vertex AI",
      "region    europe-west1",
      "project   my-project",
      "model     default",
      "auth      gcloud application-default credentials",
    ]);
    const key = describeProvider(detectProvider({ ANTHROPIC_API_KEY: "sk-ant-api03-secretsecret" }), "zh");
    expect(key).toEqual(["服务商  Anthropic API", "模型    default", "凭证    sk-a**** (ANTHROPIC_API_KEY)"]);
    expect(describeProvider(detectProvider({ CLAUDE_CODE_USE_BEDROCK: "1" }), "en").at(-1)).toBe(
      "auth      AWS default chain (~/.aws, SSO, instance role)",
    );
    expect(
      describeProvider(
        detectProvider({ CLAUDE_CODE_USE_BEDROCK: "1", CLAUDE_CODE_SKIP_BEDROCK_AUTH: "1" }),
        "en",
      ).at(-1),
    ).toBe("auth      auth skipped (CLAUDE_CODE_SKIP_BEDROCK_AUTH)");
  });
});
