/*
 * artifacts.h - the files, images and links a session produced or referred
 * to, found with the rules of Hermes's desktop app (docs/FORMATS.md,
 * "Artifacts"): MEDIA: tags, "Screenshot path:" lines, Markdown images and
 * links, bare URLs and paths in assistant text, and path-like values under
 * known keys of JSON tool results.
 *
 * Values are untrusted transcript text: nothing here opens or stats them.
 * Ownership: the array and its strings live in the arena passed in.
 */
#ifndef TXC_ARTIFACTS_H
#define TXC_ARTIFACTS_H

#include "txc/model.h"

enum txc_artifact_kind { TXC_ARTIFACT_IMAGE, TXC_ARTIFACT_FILE, TXC_ARTIFACT_LINK };

struct txc_artifact {
	enum txc_artifact_kind kind;
	struct txc_str value;
	size_t message;      /* index in t->messages */
	struct txc_str tool; /* the tool whose result named it; empty for assistant text */
	const char *rule;    /* media-tag, screenshot, markdown-image, markdown-link, url, path, result-key */
};

size_t txc_artifacts_find(const struct txc_transcript *t, struct txc_arena *a, struct txc_artifact **out);
const char *txc_artifact_kind_name(enum txc_artifact_kind k);

#endif
