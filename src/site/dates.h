/*
 * dates: the date of a dated collection's entry whose file name has none
 * (content-format.md §5.1), as Statamic's Entry::date() gives it.
 */
#ifndef CMS_API_SITE_DATES_H
#define CMS_API_SITE_DATES_H

#include "site/model.h"

/* Gives every entry of a dated collection a date: its file name's, else
 * its origin's (through the origins, each by this same rule), else its
 * last modification (`updated_at`, else the file's mtime) cut to the
 * start of its day, or of its minute when its blueprint's date field
 * shows a time but no seconds. Needs the entries and blueprints loaded. */
void dates_settle(struct site_index *idx);

#endif
