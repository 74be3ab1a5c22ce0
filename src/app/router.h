/*
 * router: the URL space of spec §4 as one static table, path pattern to
 * handler, and the one enabling gate every handler passes before it reads
 * any data. A pattern is a list of '/'-separated segments: a literal, or
 * "{}" for one parameter segment, or, last, "{*}" for the rest of the
 * path (one or more segments, joined by '/' into ctx->tail; a segment
 * that is empty, "." or "..", or holds an encoded '/' or '\\', makes it
 * match nothing). Matching is on the percent-decoded segments below the
 * route.
 *
 * Each route names the resource type it reads and which of its
 * parameters (if any) names a handle of that type; the gate stays shut
 * (the app answers 404) unless the type, then the handle, is enabled
 * (spec §3). A handler is never called for a disabled resource, so it
 * cannot leak one.
 *
 * A per-user token's abilities (abilities.h) are a second gate of the
 * same shape: a route that names a handle needs "*", the type or
 * "type:handle"; a route that names none (a list of the type's handles,
 * users, sites), and a second type whose handles the handler chooses (a
 * term's entries come from any collection), need "*" or the whole type.
 * So an answer never depends on who asked: both gates open, every token
 * gets the same bytes, and the response cache may serve them to any
 * request that passed both (app.c checks them before the cache).
 */
#ifndef CMS_API_ROUTER_H
#define CMS_API_ROUTER_H

#include <stdbool.h>
#include <stddef.h>

#include "api/api.h"
#include "guard/abilities.h"

#define ROUTER_MAX_SEGMENTS 32

/* A route's type when it reads no resource (ping). */
#define ROUTE_OPEN (-1)

struct route {
	const char *pattern;
	api_handler handler;
	int type;         /* enum resource_type the route reads, or ROUTE_OPEN */
	int handle_param; /* the parameter naming a handle of type, or -1 */
	int also_type;    /* a second type that must be on (its handles are
	                   * chosen by the handler), or ROUTE_OPEN */
};

/* Finds the route for the segments and fills ctx->params with the
 * parameter values (pointers into segments). Returns NULL when no route
 * matches. */
const struct route *router_match(char **segments, size_t nsegments, struct api_ctx *ctx);

/* The enabling gate: whether cfg lets the route answer for the parameters
 * router_match put in ctx. */
bool router_gate_open(const struct config *cfg, const struct route *route,
                      const struct api_ctx *ctx);

/* The second gate: whether the abilities let the route answer for the
 * parameters in ctx. NULL abilities (no per-user token) open it; a route
 * that reads no resource (ping) is open to every token. */
bool router_abilities_open(const struct abilities *abilities, const struct route *route,
                           const struct api_ctx *ctx);

#endif
