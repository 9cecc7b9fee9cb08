/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-test-help-util.h: what the help tests (test-page-help, test-gui-help)
 * share: is this the Russian run, and a help text that must hold a part. */
#pragma once

#include <string.h>

#include <glib.h>

/* Run under LANGUAGE=ru (the -ru variants)? */
static inline gboolean
ks_test_russian (void)
{
  const char *lang = g_getenv ("LANGUAGE");
  return lang != NULL && g_str_has_prefix (lang, "ru");
}

/* part is in text, or the test fails showing the whole text. */
static inline void
ks_test_assert_has (const char *text,
                    const char *part)
{
  if (strstr (text, part) == NULL)
    g_error ("“%s” is not in the help:\n%s", part, text);
}
