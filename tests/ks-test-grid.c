/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-test-grid.c: see ks-test-grid.h. */
#include "ks-test-grid.h"

#include <math.h>

void
ks_test_grid_init (KsTestGrid *grid,
                   guint       w,
                   guint       h)
{
  GArray *c = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *v = g_array_new (FALSE, FALSE, sizeof (double));

  grid->n = w * h;
  grid->row_ptr = g_new (guint, grid->n + 1);
  grid->centres = g_new (double, 2 * grid->n);
  grid->b = g_new (double, grid->n);
  for (guint j = 0, i0 = 0; j < h; j++)
    for (guint i = 0; i < w; i++, i0++)
      {
        grid->row_ptr[i0] = c->len;
        grid->centres[2 * i0] = i + 0.5;
        grid->centres[2 * i0 + 1] = j + 0.5;
        grid->b[i0] = sin (0.1 * i0) + (i0 == grid->n / 2 + w / 3 ? 50 : 0);
        for (int dj = -1; dj <= 1; dj++)
          for (int di = -1; di <= 1; di++)
            {
              int ni = (int) i + di, nj = (int) j + dj;

              if (ni >= 0 && nj >= 0 && ni < (int) w && nj < (int) h)
                {
                  guint k = nj * w + ni;
                  double a = (di || dj) ? -1.0 : 8.5;

                  g_array_append_val (c, k);
                  g_array_append_val (v, a);
                }
            }
      }
  grid->row_ptr[grid->n] = c->len;
  grid->col = (guint *) g_array_free (c, FALSE);
  grid->val = (double *) g_array_free (v, FALSE);
}

void
ks_test_grid_clear (KsTestGrid *grid)
{
  g_free (grid->row_ptr);
  g_free (grid->col);
  g_free (grid->val);
  g_free (grid->centres);
  g_free (grid->b);
}
