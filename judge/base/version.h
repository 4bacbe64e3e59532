/* version.h - which judge this is.
 *
 * Promise: judge_version is fixed at build time: `git describe --tags
 * --always --dirty` of the source tree, or `make VERSION=...`, or
 * "unknown" for a tree without git; `judge --version` and
 * `judge-worker --version` print it.
 */
#ifndef JUDGE_VERSION_H
#define JUDGE_VERSION_H

extern const char judge_version[];

#endif
