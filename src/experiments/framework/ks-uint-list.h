/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-uint-list.h: lists of whole numbers as the benches' options take them. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Parses "100:1000:1" (from:to:step), "100,200,500" or a mix like
 * "1,32:1024:32" into an ascending list without duplicates. */
GArray  *ks_parse_uint_list (const char *text,
                             guint       min,
                             guint       max,
                             GError    **error);

G_END_DECLS
