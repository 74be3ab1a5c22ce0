/*
 * buildinfo: what this build of cms-api can do, for `cms-api --version`:
 * one feature a line, "name: value", after the version line, so that a
 * script can grep for one (cms-api(8) lists them).
 */
#ifndef CMS_API_BUILDINFO_H
#define CMS_API_BUILDINFO_H

#include "lib/strbuf.h"

/* Appends the version line and the feature lines, each ended by '\n'. */
void buildinfo_describe(struct strbuf *out);

#endif
