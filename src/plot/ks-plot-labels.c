/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-labels.c: where a label may go without covering another label,
 * a marker or the data. */
#define G_LOG_DOMAIN "ks-plot-labels"

#include "ks-plot-private.h"

gboolean
ks_plot_rect_free_of (const Rect *r,
                      GArray     *taken)
{
  for (guint i = 0; i < taken->len; i++)
    if (rect_overlaps (r, &g_array_index (taken, Rect, i)))
      return FALSE;
  return TRUE;
}

/* The first candidate box, around a marker at (x, y) with radius r, that
 * is inside the plot area, clear of everything placed so far and of the
 * data; with may_cover, failing that, the one that hides the least data. */
gboolean
ks_plot_place_label (double      x,
                     double      y,
                     double      r,
                     double      w,
                     double      h,
                     const Rect *area,
                     GArray     *taken,
                     GPtrArray  *dps,
                     gboolean    may_cover,
                     Rect       *out)
{
  guint least = G_MAXUINT;

  double g = 2.0;
  Rect cands[] = {
    { x - w / 2,     y - r - g - h, w, h },   /* above */
    { x + r,         y - r - h,     w, h },   /* above right */
    { x - r - w,     y - r - h,     w, h },   /* above left */
    { x + r + g,     y - h / 2,     w, h },   /* right */
    { x - r - g - w, y - h / 2,     w, h },   /* left */
    { x - w / 2,     y + r + g,     w, h },   /* below */
    { x + r,         y + r,         w, h },   /* below right */
    { x - r - w,     y + r,         w, h },   /* below left */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cands); i++)
    {
      /* A little air between labels keeps neighbours legible. */
      Rect spaced = { cands[i].x - 2, cands[i].y - 1, w + 4, h + 2 };

      guint covered;

      if (!rect_contains (area, &cands[i]) || !ks_plot_rect_free_of (&spaced, taken))
        continue;
      covered = ks_plot_coverage (dps, &cands[i]);
      if (covered == 0)
        {
          *out = cands[i];
          return TRUE;
        }
      if (may_cover && covered < least)
        {
          least = covered;
          *out = cands[i];
        }
    }
  return least != G_MAXUINT;
}
