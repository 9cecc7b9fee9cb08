/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-uint-list.c: lists of whole numbers as the benches' options take them. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-uint-list.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

static int
compare_uint (gconstpointer a,
              gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;
  return (x > y) - (x < y);
}

GArray *
ks_parse_uint_list (const char *text,
                    guint       min,
                    guint       max,
                    GError    **error)
{
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (guint));
  g_auto(GStrv) parts = NULL;

  g_return_val_if_fail (text != NULL, NULL);

  parts = g_strsplit (text, ",", -1);
  for (guint i = 0; parts[i]; i++)
    {
      g_auto(GStrv) range = g_strsplit (g_strstrip (parts[i]), ":", -1);
      guint n_fields = g_strv_length (range);
      guint64 f[3] = { 0, 0, 1 };

      if (n_fields < 1 || n_fields > 3)
        goto bad;
      for (guint j = 0; j < n_fields; j++)
        {
          g_autoptr(GError) local = NULL;

          if (g_ascii_string_to_unsigned (g_strstrip (range[j]), 10, 0, G_MAXUINT, &f[j], &local))
            continue;
          /* 2^64 is a number, too large: said with the limits below. */
          if (!g_error_matches (local, G_NUMBER_PARSER_ERROR, G_NUMBER_PARSER_ERROR_OUT_OF_BOUNDS))
            goto bad;
          f[j] = (guint64) G_MAXUINT + 1;   /* beyond any max, and a step that cannot wrap */
        }
      if (n_fields == 1)
        f[1] = f[0];
      if (f[2] == 0 || f[1] < f[0])
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       f[2] == 0 ? _("\"%s\": the step must be at least 1")
                                 : _("\"%s\": the range is empty (it starts above its end)"), parts[i]);
          return NULL;
        }
      if (f[0] < min || f[1] > max)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("\"%s\": values must lie between %u and %u"), parts[i], min, max);
          return NULL;
        }
      if ((f[1] - f[0]) / f[2] > 1000000)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("\"%s\" has more than a million values"), parts[i]);
          return NULL;
        }
      for (guint64 v = f[0]; v <= f[1]; v += f[2])
        {
          guint u = (guint) v;
          g_array_append_val (values, u);
        }
      continue;

    bad:
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("\"%s\" is not a number, a list (100,200) or a range from:to[:step] (100:1000:10)"),
                   parts[i]);
      return NULL;
    }

  if (values->len == 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("The list \"%s\" is empty"), text);
      return NULL;
    }

  /* Ascending, no duplicates: the plots draw in x order. */
  g_array_sort (values, compare_uint);
  for (guint i = 1; i < values->len;)
    {
      if (g_array_index (values, guint, i) == g_array_index (values, guint, i - 1))
        g_array_remove_index (values, i);
      else
        i++;
    }
  return g_steal_pointer (&values);
}
