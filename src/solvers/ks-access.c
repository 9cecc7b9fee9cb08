/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-access.c: the launch of each modelled kernel as its solver makes it,
 * the items of the first groups walked through ks-access-kernels.c, and
 * the cache lines each warp's instruction touches counted. */
#define G_LOG_DOMAIN "ks-solvers"

#include "ks-access-private.h"
#include "ks-solver-error.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define MAX_GROUP     1024u
#define MAX_ACCESSES  (G_GUINT64_CONSTANT (1) << 26)

static const char *const names[KS_ACCESS_N_KERNELS] = {
  "micro-direct", "micro-grouped", "thomas-natural", "thomas-interleaved",
  "paracr-natural", "paracr-interleaved", "index-mapped",
  "thomas-staged-natural", "thomas-staged-interleaved",
};

const char *
ks_access_kernel_to_string (KsAccessKernel kernel)
{
  g_return_val_if_fail (kernel < KS_ACCESS_N_KERNELS, NULL);
  return names[kernel];
}

static guint64
round_up (guint64 n,
          guint64 g)
{
  return (n + g - 1) / g * g;
}

static gboolean
invalid (GError    **error,
         const char *message)
{
  g_set_error_literal (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID, message);
  return FALSE;
}

/* What index_fill_mapped's launch is under the point's rule, as
 * ks-index-solver.c makes it. */
static gboolean
index_launch (const KsAccessPoint *p,
              KsAccessLaunch      *l,
              GError             **error)
{
  const KsIndexDomain *dom = &p->domain;
  KsIndexMapping m = { 0 };
  gboolean ok = FALSE;

  ks_index_map (dom, p->rule, p->group, &m);
  if (!m.mapped)
    g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID, _("No launch for this domain: %s"), m.why);
  else if (m.thread_side == 0 && dom->dims == 2)
    invalid (error, _("N1 gets the threads here, a layout the mapped kernel does not run"));
  else
    ok = TRUE;
  if (ok)
    {
      l->layout = ks_index_mapping_layout (dom, &m, l->sides);
      l->dims = m.grid_dims;
      for (guint d = 0; d < m.grid_dims; d++)
        {
          l->global[d] = m.grid[d] * (d == 0 ? m.block[0] : 1);
          l->local[d] = d == 0 ? m.block[0] : 1;
        }
    }
  ks_index_mapping_clear (&m);
  return ok;
}

static gboolean
check_point (const KsAccessPoint *p,
             GError             **error)
{
  const gboolean micro = p->kernel <= KS_ACCESS_MICRO_GROUPED, index = p->kernel == KS_ACCESS_INDEX_MAPPED;

  if (!index && (p->group < 1 || p->group > MAX_GROUP))
    return invalid (error, _("The work-group size must be from 1 to 1024"));
  if (micro && (p->rows < 10 || p->len < 10 || p->rows % 2 || p->len % 2 || p->edges > 2))
    return invalid (error, _("The image's rows and row length must be even and at least 10"));
  if (!micro && p->elem != 4 && p->elem != 8)
    return invalid (error, _("A value must be 4 (float) or 8 (double) bytes"));
  if (!micro && !index && (p->n < 2 || p->systems < 1))
    return invalid (error, _("A batch needs systems of at least 2 unknowns"));
  if ((p->kernel == KS_ACCESS_PARACR_NATURAL || p->kernel == KS_ACCESS_PARACR_INTERLEAVED) &&
      (p->level >= 31 || (1u << p->level) >= p->n))
    return invalid (error, _("PARACR's level must leave its stride 2^level below the system size"));
  return TRUE;
}

static gboolean
make_launch (const KsAccessPoint *p,
             KsAccessLaunch      *l,
             GError             **error)
{
  memset (l, 0, sizeof *l);
  if (!check_point (p, error))
    return FALSE;
  for (guint d = 0; d < 3; d++)
    l->global[d] = l->local[d] = 1;
  l->dims = 1;
  l->local[0] = p->group;
  switch (p->kernel)
    {
    case KS_ACCESS_MICRO_DIRECT:
      l->global[0] = round_up (p->rows, p->group);
      break;
    case KS_ACCESS_MICRO_GROUPED:
      l->dims = 2, l->global[0] = round_up (p->len / 2, p->group), l->global[1] = p->rows;
      break;
    case KS_ACCESS_THOMAS_NATURAL:
    case KS_ACCESS_THOMAS_INTERLEAVED:
    case KS_ACCESS_THOMAS_STAGED_NATURAL:
    case KS_ACCESS_THOMAS_STAGED_INTERLEAVED:
      l->global[0] = round_up (p->systems, p->group);
      break;
    case KS_ACCESS_PARACR_NATURAL:
    case KS_ACCESS_PARACR_INTERLEAVED:
      l->dims = 2, l->global[0] = round_up (p->n, p->group), l->global[1] = p->systems;
      break;
    case KS_ACCESS_INDEX_MAPPED:
      return index_launch (p, l, error);
    case KS_ACCESS_N_KERNELS:
      g_assert_not_reached ();
    }
  return TRUE;
}

static void
set_buffers (KsAccessModel *m,
             KsAccessKernel kernel)
{
  static const char *const micro[] = { "in", "out" };
  static const char *const thomas[] = { "a", "b", "c", "d", "cp", "x" };
  static const char *const paracr[] = { "a", "b", "c", "d", "src", "dst" };
  static const char *const index[] = { "v" };
  const char *const *b = kernel <= KS_ACCESS_MICRO_GROUPED ? micro
                       : kernel <= KS_ACCESS_THOMAS_INTERLEAVED || kernel > KS_ACCESS_INDEX_MAPPED ? thomas
                       : kernel <= KS_ACCESS_PARACR_INTERLEAVED ? paracr : index;

  m->n_buffers = b == micro ? 2 : b == index ? 1 : 6;
  for (guint i = 0; i < m->n_buffers; i++)
    m->buffers[i] = b[i];
}

/* The item at local id l of linear group g, as its global ids. */
static guint32
item_of (const KsAccessLaunch *l,
         guint64               g,
         guint64               lid,
         guint64              *gid)
{
  const guint64 ng0 = l->global[0] / l->local[0], ng1 = l->global[1];

  gid[0] = (g % ng0) * l->local[0] + lid;
  gid[1] = (g / ng0) % ng1;
  gid[2] = g / ng0 / ng1;
  return (guint32) ((gid[2] * l->global[1] + gid[1]) * l->global[0] + gid[0]);
}

gboolean
ks_access_model_build (const KsAccessPoint *point,
                       KsAccessModel       *out,
                       GError             **error)
{
  KsAccessLaunch l;
  KsAccessSink sink = { &l, NULL, 0, 0 };
  KsAccessItemFunc func;
  guint64 groups;

  g_return_val_if_fail (point != NULL && point->kernel < KS_ACCESS_N_KERNELS, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  if (!make_launch (point, &l, error))
    return FALSE;
  groups = l.global[0] / l.local[0] * l.global[1] * l.global[2];
  if (point->groups > 0)
    groups = MIN (groups, point->groups);
  if (groups * l.local[0] > G_MAXUINT32 / 2 || l.global[0] * l.global[1] * l.global[2] > G_MAXUINT32)
    return invalid (error, _("Too many work-items to model: take fewer groups"));
  func = ks_access_item_func (point->kernel);
  sink.out = g_array_new (FALSE, FALSE, sizeof (KsAccess));
  out->n_items = (guint) (groups * l.local[0]);
  out->idle = g_new0 (guint8, out->n_items);
  for (guint64 g = 0, k = 0; g < groups; g++)
    for (guint64 lid = 0; lid < l.local[0]; lid++, k++)
      {
        guint64 gid[3];

        sink.item = item_of (&l, g, lid, gid);
        out->idle[k] = !func (point, gid, &sink);
        if (sink.out->len > MAX_ACCESSES)
          {
            g_array_unref (sink.out);
            ks_access_model_clear (out);
            return invalid (error, _("Too many accesses to model: take a smaller point or fewer groups"));
          }
      }
  out->accesses = sink.out;
  out->steps = sink.steps;
  out->dims = l.dims;
  memcpy (out->global, l.global, sizeof l.global);
  memcpy (out->local, l.local, sizeof l.local);
  set_buffers (out, point->kernel);
  return TRUE;
}

void
ks_access_model_clear (KsAccessModel *model)
{
  g_clear_pointer (&model->accesses, g_array_unref);
  g_clear_pointer (&model->idle, g_free);
  memset (model, 0, sizeof *model);
}

guint
ks_access_warp_of (const KsAccessModel *m,
                   guint32              item,
                   guint                warp)
{
  const guint64 g0 = m->global[0], g1 = m->global[1], L = m->local[0];
  const guint64 x = item % g0, y = item / g0 % g1, z = item / g0 / g1;
  const guint64 group = (z * g1 + y) * (g0 / L) + x / L;

  g_return_val_if_fail (warp > 0, 0);
  return (guint) (group * ((L + warp - 1) / warp) + x % L / warp);
}
