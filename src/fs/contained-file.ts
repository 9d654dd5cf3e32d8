/**
 * Reading a file a record names, for a page that serves it (`flower serve`'s check logs): only a regular
 * file inside its folder, reached through no link. A log replaced by a symbolic link (to `~/.ssh/id_rsa`,
 * to `/etc/shadow`), or by a hard link to a file elsewhere, must not be served because a record names its
 * path.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, realpathSync } from "node:fs";
import { isAbsolute, relative, sep } from "node:path";

/**
 * The text of `file` when it is a regular file inside `folder`; null for anything else: a missing file, a
 * symbolic link in the file's place or the folder's (lstat, and O_NOFOLLOW when it is opened, so a link
 * swapped in meanwhile is not followed either), a folder, a device or a pipe, a file whose real path is not
 * inside the folder's real path, and a file with other hard links (one of them may be outside).
 */
export function readFileInside(folder: string, file: string): string | null {
  const folderStat = lstatSync(folder, { throwIfNoEntry: false });
  if (folderStat === undefined || !folderStat.isDirectory()) return null;
  const fileStat = lstatSync(file, { throwIfNoEntry: false });
  if (fileStat === undefined || !fileStat.isFile()) return null;
  let realFolder: string;
  let realFile: string;
  try {
    realFolder = realpathSync(folder);
    realFile = realpathSync(file);
  } catch {
    return null;
  }
  if (!isInside(realFolder, realFile)) return null;
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO swapped in after the lstat must not hang the request (it fails the isFile below).
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const opened = fstatSync(fd);
    // The very file that was checked: not another swapped in between the lstat and the open.
    if (!opened.isFile() || opened.ino !== fileStat.ino || opened.dev !== fileStat.dev) return null;
    if (opened.nlink > 1) return null;
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

function isInside(folder: string, candidate: string): boolean {
  const path = relative(folder, candidate);
  return path !== "" && path !== ".." && !path.startsWith(`..${sep}`) && !isAbsolute(path);
}
