/*
 * people: forms and users, into the index's extras; of a user only what
 * is safe to serve is kept.
 */
#ifndef CMS_API_SITE_PEOPLE_H
#define CMS_API_SITE_PEOPLE_H

#include "lib/strbuf.h"
#include "lib/value.h"
#include "site/model.h"

/* Appends "forms" and its list (shape in people.c) to the open
 * idx->extras map. */
void forms_load(struct site_index *idx);

/* Appends "users" and its list (shape in people.c) to the open
 * idx->extras map. */
void users_load(struct site_index *idx);

/* Looks who up in an index's "users" list: a user whose id is who, or,
 * with by_email, whose e-mail is who. Sets *id to the user's id as text
 * and returns true, or returns false. */
bool users_find(value_t users, const char *who, bool by_email, struct strbuf *id);

#endif
