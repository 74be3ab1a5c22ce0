/*
 * router: the URL space of spec §4 as one static table, path pattern to
 * handler. A pattern is a list of '/'-separated segments: a literal, or
 * "{}" for one parameter segment. Matching is on the percent-decoded
 * segments below the route.
 */
#ifndef CMS_API_ROUTER_H
#define CMS_API_ROUTER_H

#include <stddef.h>

#include "api/api.h"

#define ROUTER_MAX_SEGMENTS 32

/* Finds the handler for the segments and fills ctx->params with the
 * parameter values (pointers into segments). Returns NULL when no route
 * matches. */
api_handler router_match(char **segments, size_t nsegments, struct api_ctx *ctx);

#endif
