/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-page-help-private.h: what the generated help (ks-page-help.c) and the
 * hand-written pages (ks-page-help-text.c) share. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A bold heading, after a blank line unless it starts out. */
void ks_page_help_heading   (GString    *out,
                             const char *heading);
/* Plain text, escaped, and a line break. */
void ks_page_help_paragraph (GString    *out,
                             const char *text);

G_END_DECLS
