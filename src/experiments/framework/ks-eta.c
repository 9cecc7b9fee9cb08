/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ks-eta.h"

#include <math.h>
#include <stdlib.h>

/* The newest few measured points of a group (or of the whole run).  A
 * prediction takes their median, so one outlier (a prime N+1 that ran in
 * groups of one item, 10-40 times its neighbours) does not multiply the
 * estimate of every point after it. */
#define WINDOW 5

typedef struct {
  double n[WINDOW];
  double cost_ms[WINDOW];
  guint  len, next;
} Window;

/* Running sums of (log n, log cost) over a group's points, for the fit. */
typedef struct {
  double count, x, y, xx, xy;
} Sums;

typedef struct {
  gboolean measured;
  gboolean refused;   /* the newest point of this group failed */
  Window   recent;
  Sums     sums;
} Group;

struct _KsEta {
  guint   total, done;
  double *plan_n;            /* per point, in measuring order: its size */
  guint  *plan_j;            /* and its group */
  Group  *groups;
  guint   n_groups;
  double  cost_done_ms;
  double  exponent;
  double  sxx, sxy;          /* pooled within-group sums of the fit, kept as points come */
  gboolean have_newest;
  Window  recent;            /* of every group, for groups not yet measured */
  /* The clock: elapsed seconds and cost done at the first measured point
   * and now, for the seconds each ms of cost really takes. */
  double  first_elapsed_s, first_cost_ms;
  double  elapsed_s;
};

#define DEFAULT_EXPONENT 3.0

static KsEta *
eta_alloc (guint total,
           guint n_groups)
{
  KsEta *eta = g_new0 (KsEta, 1);

  eta->n_groups = MAX (n_groups, 1);
  eta->total = total;
  eta->plan_n = g_new0 (double, MAX (eta->total, 1));
  eta->plan_j = g_new0 (guint, MAX (eta->total, 1));
  eta->groups = g_new0 (Group, eta->n_groups);
  eta->exponent = DEFAULT_EXPONENT;
  return eta;
}

KsEta *
ks_eta_new_plan (guint         n_points,
                 const double *size,
                 const guint  *group,
                 guint         n_groups)
{
  KsEta *eta;

  g_return_val_if_fail (n_points == 0 || (size != NULL && group != NULL), NULL);

  eta = eta_alloc (n_points, n_groups);
  for (guint k = 0; k < n_points; k++)
    {
      g_return_val_if_fail (group[k] < eta->n_groups, eta);
      eta->plan_n[k] = size[k] > 0 ? size[k] : 1;
      eta->plan_j[k] = group[k];
    }
  return eta;
}

void
ks_eta_set_exponent (KsEta  *eta,
                     double  exponent)
{
  g_return_if_fail (eta != NULL);
  if (eta->sxx <= 1e-3)
    eta->exponent = CLAMP (exponent, 1.0, 3.0);
}

void
ks_eta_free (KsEta *eta)
{
  if (eta == NULL)
    return;
  g_free (eta->plan_n);
  g_free (eta->plan_j);
  g_free (eta->groups);
  g_free (eta);
}

static void
window_add (Window *w,
            double  n,
            double  cost_ms)
{
  w->n[w->next] = n;
  w->cost_ms[w->next] = cost_ms;
  w->next = (w->next + 1) % WINDOW;
  w->len = MIN (w->len + 1, WINDOW);
}

static int
cmp_double (gconstpointer a,
            gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* The cost at size n predicted from each recent point, scaled by
 * (n / n_i)^p; the median of those (the lower middle of an even count,
 * so two points of which one is an outlier predict the other). */
static double
window_predict (const Window *w,
                double        n,
                double        exponent)
{
  double v[WINDOW];

  g_assert (w->len > 0);
  for (guint i = 0; i < w->len; i++)
    v[i] = w->cost_ms[i] * pow (n / w->n[i], exponent);
  qsort (v, w->len, sizeof v[0], cmp_double);
  return v[(w->len - 1) / 2];
}

/* A group's share of the pooled sums: its centred sum of squares and of
 * products. */
static void
group_share (const Sums *g,
             double     *sxx,
             double     *sxy)
{
  *sxx = g->count > 0 ? g->xx - g->x * g->x / g->count : 0;
  *sxy = g->count > 0 ? g->xy - g->x * g->y / g->count : 0;
}

/* The slope of log(cost) on log(n) within each group (each group has its
 * own level: groups of one item are slower at every n), pooled over the
 * groups; undefined until one group has two sizes.  The sums are kept as
 * points come (a group's old share out, its new one in), so a point costs
 * the same whether it is the tenth or the millionth. */
static void
fit_add (KsEta  *eta,
         Group  *g,
         double  log_n,
         double  log_cost)
{
  double old_xx, old_xy, new_xx, new_xy;

  group_share (&g->sums, &old_xx, &old_xy);
  g->sums.count += 1;
  g->sums.x += log_n;
  g->sums.y += log_cost;
  g->sums.xx += log_n * log_n;
  g->sums.xy += log_n * log_cost;
  group_share (&g->sums, &new_xx, &new_xy);
  eta->sxx += new_xx - old_xx;
  eta->sxy += new_xy - old_xy;
  /* Sizes a few percent apart say little about the exponent: wait for a
   * spread of sizes before trusting the fit. */
  if (eta->sxx > 1e-3)
    eta->exponent = CLAMP (eta->sxy / eta->sxx, 1.0, 3.0);
}

void
ks_eta_add_cost (KsEta   *eta,
                 gboolean refused,
                 double   cost,
                 double   elapsed_s)
{
  Group *g;
  double n;

  g_return_if_fail (eta != NULL);
  if (eta->done >= eta->total)
    return;
  g = &eta->groups[eta->plan_j[eta->done]];
  n = eta->plan_n[eta->done];
  g->measured = TRUE;
  g->refused = refused;
  cost = refused ? 0 : cost;
  eta->cost_done_ms += cost;
  eta->elapsed_s = elapsed_s;
  if (!g->refused && cost > 0 && n > 0)
    {
      if (!eta->have_newest)
        {
          eta->first_elapsed_s = elapsed_s;
          eta->first_cost_ms = eta->cost_done_ms;
        }
      eta->have_newest = TRUE;
      window_add (&g->recent, n, cost);
      window_add (&eta->recent, n, cost);
      fit_add (eta, g, log (n), log (cost));
    }
  eta->done++;
}

double
ks_eta_get_remaining_ms (KsEta *eta)
{
  double left = 0;

  g_return_val_if_fail (eta != NULL, -1);
  if (eta->done >= eta->total)
    return 0;
  if (!eta->have_newest)
    return -1;
  for (guint k = eta->done; k < eta->total; k++)
    {
      const Group *g = &eta->groups[eta->plan_j[k]];
      double n = eta->plan_n[k];

      if (g->measured && g->refused)
        continue;   /* a group the device refused at one size it refuses at the next */
      left += window_predict (g->recent.len > 0 ? &g->recent : &eta->recent, n, eta->exponent);
    }
  return left;
}

double
ks_eta_get_seconds_left (KsEta *eta)
{
  double left_ms = ks_eta_get_remaining_ms (eta);
  double clock_s = eta->elapsed_s - eta->first_elapsed_s;
  double cost_ms = eta->cost_done_ms - eta->first_cost_ms;
  /* Seconds per ms of cost, from the points after the first (the first
   * also paid for building the kernels); 1/1000 until there are some. */
  double scale = clock_s > 0 && cost_ms > 0 ? clock_s / cost_ms : 1e-3;

  return left_ms < 0 ? -1 : left_ms * scale;
}

double
ks_eta_get_fraction (KsEta *eta)
{
  double left;

  g_return_val_if_fail (eta != NULL, 0);
  if (eta->total == 0 || eta->done >= eta->total)
    return eta->total == 0 ? 0 : 1;
  left = ks_eta_get_seconds_left (eta);
  if (left < 0 || eta->elapsed_s + left <= 0)
    return 0;   /* nothing measured yet: no estimate */
  return eta->elapsed_s / (eta->elapsed_s + left);
}
