/*
 * people: forms and users, into the index's extras; of a user only what
 * is safe to serve is kept.
 */
#ifndef CMS_API_SITE_PEOPLE_H
#define CMS_API_SITE_PEOPLE_H

#include "site/index.h"

/* Appends "forms" and its list (shape in people.c) to the open
 * idx->extras map. */
void forms_load(struct site_index *idx);

/* Appends "users" and its list (shape in people.c) to the open
 * idx->extras map. */
void users_load(struct site_index *idx);

#endif
