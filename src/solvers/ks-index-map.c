/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-index-map.c: the index-domain mapping rules of paper 003 (see the
 * header), as arithmetic on 64-bit counts: no device, no allocation but
 * the two strings of a mapping. */
#define G_LOG_DOMAIN "ks-index-map"

#include "ks-index-map.h"

#include <glib/gi18n-lib.h>
#include <string.h>

G_DEFINE_QUARK (ks-index-map-error-quark, ks_index_map_error)

static guint64
ceil_div (guint64 n,
          guint64 d)
{
  return n / d + (n % d != 0);
}

guint64
ks_index_next_pow2 (guint64 n)
{
  guint64 p = 1;

  g_return_val_if_fail (n <= (G_GUINT64_CONSTANT (1) << 63), 0);

  while (p < n)
    p <<= 1;
  return p;
}

/* ---- domains ------------------------------------------------------------ */

gboolean
ks_index_domain_init (KsIndexDomain *out,
                      guint          dims,
                      const gint64  *sides,
                      GError       **error)
{
  guint64 points = 1;

  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (sides != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (dims < 1 || dims > 3)
    {
      g_set_error (error, KS_INDEX_MAP_ERROR, KS_INDEX_MAP_ERROR_PARSE,
                   _("A domain has 1 to 3 sides, not %u"), dims);
      return FALSE;
    }
  for (guint d = 0; d < dims; d++)
    if (sides[d] <= 0)
      {
        g_set_error (error, KS_INDEX_MAP_ERROR, KS_INDEX_MAP_ERROR_SIDE,
                     _("Side N%u of the domain is %lld: every side must be at least 1"),
                     d + 1, (long long) sides[d]);
        return FALSE;
      }
  for (guint d = 0; d < dims; d++)
    if (!g_uint64_checked_mul (&points, points, (guint64) sides[d]))
      {
        g_set_error (error, KS_INDEX_MAP_ERROR, KS_INDEX_MAP_ERROR_OVERFLOW,
                     _("The domain has more points than a 64-bit count holds "
                       "(at most 18446744073709551615): side N%u = %lld overflows it"),
                     d + 1, (long long) sides[d]);
        return FALSE;
      }

  out->dims = dims;
  for (guint d = 0; d < 3; d++)
    out->n[d] = d < dims ? (guint64) sides[d] : 1;
  return TRUE;
}

/* The text with "×", "X", "," and blanks made "x", and "D(...)" unwrapped. */
static char *
normalize_domain_text (const char *text)
{
  g_autoptr(GString) s = g_string_new (NULL);
  gsize len;

  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == 0x00d7 || c == 'X' || c == ',')
        g_string_append_c (s, 'x');
      else if (!g_unichar_isspace (c))
        g_string_append_unichar (s, c);
    }
  len = s->len;
  if (len >= 3 && (s->str[0] == 'D' || s->str[0] == 'd') && s->str[1] == '(' && s->str[len - 1] == ')')
    {
      g_string_truncate (s, len - 1);
      g_string_erase (s, 0, 2);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

gboolean
ks_index_domain_parse (const char    *text,
                       KsIndexDomain *out,
                       GError       **error)
{
  g_autofree char *norm = NULL;
  g_auto(GStrv) parts = NULL;
  gint64 sides[3];
  guint dims;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  norm = normalize_domain_text (text);
  parts = g_strsplit (norm, "x", -1);
  dims = g_strv_length (parts);
  if (norm[0] == '\0' || dims > 3)
    {
      g_set_error (error, KS_INDEX_MAP_ERROR, KS_INDEX_MAP_ERROR_PARSE,
                   _("“%s” is not a domain: write N, N1xN2 or N1xN2xN3 (1 to 3 sides), e.g. 2000x3000"), text);
      return FALSE;
    }
  for (guint d = 0; d < dims; d++)
    {
      g_autoptr(GError) local = NULL;

      if (!g_ascii_string_to_signed (parts[d], 10, G_MININT64, G_MAXINT64, &sides[d], &local))
        {
          gboolean digits = parts[d][0] != '\0' &&
                            strspn (parts[d] + (parts[d][0] == '-'), "0123456789") == strlen (parts[d] + (parts[d][0] == '-'));

          if (digits && g_error_matches (local, G_NUMBER_PARSER_ERROR, G_NUMBER_PARSER_ERROR_OUT_OF_BOUNDS))
            g_set_error (error, KS_INDEX_MAP_ERROR, KS_INDEX_MAP_ERROR_OVERFLOW,
                         _("Side N%u of the domain, %s, does not fit in 64 bits (at most 9223372036854775807)"),
                         d + 1, parts[d]);
          else
            g_set_error (error, KS_INDEX_MAP_ERROR, KS_INDEX_MAP_ERROR_PARSE,
                         _("Side N%u of “%s” is “%s”, not a whole number: write N, N1xN2 or N1xN2xN3, e.g. 2000x3000"),
                         d + 1, text, parts[d]);
          return FALSE;
        }
    }
  return ks_index_domain_init (out, dims, sides, error);
}

char *
ks_index_domain_to_string (const KsIndexDomain *domain)
{
  g_autoptr(GString) s = g_string_new (NULL);

  g_return_val_if_fail (domain != NULL, NULL);

  for (guint d = 0; d < domain->dims; d++)
    g_string_append_printf (s, "%s%" G_GUINT64_FORMAT, d ? " × " : "", domain->n[d]);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

guint64
ks_index_domain_points (const KsIndexDomain *domain)
{
  g_return_val_if_fail (domain != NULL, 0);

  return domain->n[0] * domain->n[1] * domain->n[2];
}

gboolean
ks_index_domain_check_memory (const KsIndexDomain *domain,
                              gsize                elem_size,
                              guint64              max_alloc,
                              guint64              global_mem,
                              const char          *device_name,
                              GError             **error)
{
  guint64 bytes;
  g_autofree char *text = NULL, *need = NULL, *have = NULL;
  guint64 limit;
  gboolean fits;

  g_return_val_if_fail (domain != NULL, FALSE);
  g_return_val_if_fail (elem_size > 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  fits = g_uint64_checked_mul (&bytes, ks_index_domain_points (domain), elem_size);
  limit = max_alloc ? max_alloc : global_mem;
  if (global_mem && global_mem < limit)
    limit = global_mem;
  if (fits && (limit == 0 || bytes <= limit))
    return TRUE;

  text = ks_index_domain_to_string (domain);
  have = g_format_size_full (limit, G_FORMAT_SIZE_IEC_UNITS);
  if (!fits)
    need = g_strdup (_("more than 16 EiB"));
  else
    need = g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
  g_set_error (error, KS_INDEX_MAP_ERROR, KS_INDEX_MAP_ERROR_MEMORY,
               _("The domain %s needs %s (%llu points of %llu bytes); "
                 "%s takes at most %s in one buffer"),
               text, need, (unsigned long long) ks_index_domain_points (domain), (unsigned long long) elem_size,
               device_name ? device_name : _("the device"), have);
  return FALSE;
}

/* ---- rules -------------------------------------------------------------- */

const char *
ks_index_rule_to_string (KsIndexRule rule)
{
  static const char *const names[] = { "paper", "printed", "today", "occupancy" };

  g_return_val_if_fail (rule < KS_INDEX_RULE_N, NULL);
  return names[rule];
}

const char *
ks_index_rule_label (KsIndexRule rule)
{
  static const char *const labels[] = {
    N_("Paper (its text and worked example)"),
    N_("Paper (its formulas as printed)"),
    N_("Today's limits"),
    N_("Occupancy API, one flat launch"),
  };

  g_return_val_if_fail (rule < KS_INDEX_RULE_N, NULL);
  return _(labels[rule]);
}

/* What a rule may do: how big a grid dimension is, how a side that fits a
 * block is rounded to threads, and whether the 2D split divides N1 (as
 * printed) or N2 (as meant). */
typedef struct {
  guint64  grid_x_max;
  gboolean pow2;
  gboolean warp;
  gboolean printed;
} Limits;

static guint64
round_threads (const Limits *lim,
               guint64       n)
{
  if (lim->pow2)
    return ks_index_next_pow2 (n);
  if (lim->warp)
    return MIN (ceil_div (n, KS_INDEX_WARP) * KS_INDEX_WARP, (guint64) KS_INDEX_PAPER_THREADS);
  return n;
}

/* count blocks along one line: one grid dimension while it fits, else the
 * paper's dim3(ceil(count / 65535), 65535). */
static gboolean
spread_blocks (guint64  count,
               guint64  grid_x_max,
               guint64 *gx,
               guint64 *gy)
{
  if (count <= grid_x_max)
    {
      *gx = count;
      *gy = 1;
      return TRUE;
    }
  *gy = KS_INDEX_PAPER_GRID;
  *gx = ceil_div (count, *gy);
  return *gx <= grid_x_max;
}

static void
set_launch (KsIndexMapping *m,
            guint           grid_dims,
            guint64         gx,
            guint64         gy,
            guint64         gz,
            guint64         tx)
{
  m->grid_dims = grid_dims;
  m->grid[0] = gx;
  m->grid[1] = gy;
  m->grid[2] = gz;
  m->block_dims = 1;
  m->block[0] = tx;
  m->block[1] = m->block[2] = 1;
}

static void
unmapped (KsIndexMapping *m,
          char           *why)
{
  m->mapped = FALSE;
  g_free (m->why);
  m->why = why;
}

static void
map_1d (const KsIndexDomain *dom,
        const Limits        *lim,
        guint64             *cap,
        KsIndexMapping      *m)
{
  guint64 blocks = ceil_div (dom->n[0], KS_INDEX_PAPER_THREADS), gx, gy;

  if (!spread_blocks (blocks, lim->grid_x_max, &gx, &gy))
    {
      unmapped (m, g_strdup_printf (_("D(N) needs %llu blocks of 1024: more than %llu × 65535 fit in the grid"),
                                    (unsigned long long) blocks, (unsigned long long) lim->grid_x_max));
      return;
    }
  set_launch (m, gy > 1 ? 2 : 1, gx, gy, 1, KS_INDEX_PAPER_THREADS);
  cap[0] = KS_INDEX_PAPER_THREADS * gx * gy;
  m->thread_side = 0;
  m->why = gy > 1
    ? g_strdup_printf (_("D(N): 1024 threads per block; the %llu blocks exceed one grid "
                         "dimension (%llu), so a 2D grid dim3(ceil(blocks / 65535), 65535)"),
                       (unsigned long long) blocks, (unsigned long long) lim->grid_x_max)
    : g_strdup (_("D(N): 1024 threads per block, ceil(N / 1024) blocks"));
}

static void
map_2d (const KsIndexDomain *dom,
        const Limits        *lim,
        guint64             *cap,
        KsIndexMapping      *m)
{
  const guint64 T = KS_INDEX_PAPER_THREADS;
  guint64 gx, gy;
  int t;    /* the side that gets the threads */

  if (dom->n[1] > T && dom->n[0] > T)
    {
      /* No side fits a block: N2 in blocks of 1024 along the grid's y, N1
       * along its x.  The formula prints (N1 + 1023) / 1024 there. */
      guint64 split = ceil_div (lim->printed ? dom->n[0] : dom->n[1], T);

      if (dom->n[0] > lim->grid_x_max || split > KS_INDEX_PAPER_GRID)
        {
          unmapped (m, g_strdup_printf (_("No side fits a block, and the rule needs N1 <= %llu"
                                          " and ceil(N2 / 1024) <= 65535: the paper gives no launch for this domain"),
                                        (unsigned long long) lim->grid_x_max));
          return;
        }
      set_launch (m, 2, dom->n[0], split, 1, T);
      cap[0] = dom->n[0];
      cap[1] = T * split;
      m->thread_side = 1;
      m->why = g_strdup (lim->printed
                         ? _("No side fits a block: dim3(N1, (N1 + 1023) / 1024) blocks of 1024, as the formula "
                             "prints it; that covers N2 only when N1 >= N2")
                         : _("No side fits a block: N2 in ceil(N2 / 1024) blocks of 1024 threads along the grid's y, "
                             "N1 along its x (the worked example's dim3(2000, 3))"));
      return;
    }

  t = dom->n[1] <= T ? 1 : 0;
  if (t == 0 && lim->printed)
    {
      unmapped (m, g_strdup (_("N1 fits a block and N2 does not: the text maps N1 to threads, "
                               "but the formulas print only the case N2 <= 1024")));
      return;
    }
  if (!spread_blocks (dom->n[1 - t], lim->grid_x_max, &gx, &gy))
    {
      unmapped (m, g_strdup_printf (_("%llu blocks: more than %llu × 65535 fit in the grid"),
                                    (unsigned long long) dom->n[1 - t], (unsigned long long) lim->grid_x_max));
      return;
    }
  set_launch (m, gy > 1 ? 2 : 1, gx, gy, 1, round_threads (lim, dom->n[t]));
  cap[t] = m->block[0];
  cap[1 - t] = gx * gy;
  m->thread_side = t;
  m->why = g_strdup_printf (_("N%d = %llu fits a block: %llu threads (%s), "
                              "one block per point of N%d%s"),
                            t + 1, (unsigned long long) dom->n[t], (unsigned long long) m->block[0],
                            lim->pow2 ? _("the next power of two, as the text says")
                            : lim->warp ? _("rounded up to the warp of 32")
                            : _("N2 itself, as the formula prints it"),
                            2 - t, gy > 1 ? _(", in a 2D grid dim3(ceil(N / 65535), 65535)") : "");
}

static void
map_3d (const KsIndexDomain *dom,
        const Limits        *lim,
        KsIndexRule          rule,
        guint64             *cap,
        KsIndexMapping      *m)
{
  const guint64 T = KS_INDEX_PAPER_THREADS;
  gboolean today = rule == KS_INDEX_RULE_TODAY;

  if (dom->n[0] > lim->grid_x_max || dom->n[1] > KS_INDEX_PAPER_GRID || (!today && dom->n[2] > T))
    {
      unmapped (m, g_strdup_printf (_("The 3D rule needs N3 <= 1024, N1 <= %llu"
                                      " and N2 <= 65535; the paper gives no launch for this domain"),
                                    (unsigned long long) lim->grid_x_max));
      return;
    }
  if (dom->n[2] <= T)
    {
      set_launch (m, 2, dom->n[0], dom->n[1], 1, round_threads (lim, dom->n[2]));
      cap[2] = m->block[0];
      m->why = g_strdup (_("D(N1, N2, N3), N3 fits a block: dim3(N1, N2) blocks of N3 threads"));
    }
  else
    {
      guint64 gz = ceil_div (dom->n[2], T);

      if (gz > KS_INDEX_PAPER_GRID)
        {
          unmapped (m, g_strdup (_("N3 needs more than 65535 blocks of 1024 along the grid's z")));
          return;
        }
      set_launch (m, 3, dom->n[0], dom->n[1], gz, T);
      cap[2] = T * gz;
      m->why = g_strdup (_("N3 does not fit a block: dim3(N1, N2, ceil(N3 / 1024)) blocks of 1024, "
                           "the grid's z (not in the paper)"));
    }
  cap[0] = dom->n[0];
  cap[1] = dom->n[1];
  m->thread_side = 2;
}

static void
map_flat (const KsIndexDomain *dom,
          guint64              block,
          KsIndexMapping      *m)
{
  guint64 points = ks_index_domain_points (dom), blocks, gx, gy;

  if (block == 0)
    {
      unmapped (m, g_strdup (_("No block size suggested yet: the occupancy API needs a device to ask "
                               "(Run on the page, -d DEVICE in kernelscope-cli map)")));
      return;
    }
  blocks = ceil_div (points, block);
  if (!spread_blocks (blocks, KS_INDEX_TODAY_GRID_X, &gx, &gy))
    {
      unmapped (m, g_strdup_printf (_("%llu blocks: more than 2^31 - 1 × 65535 fit in the grid"),
                                    (unsigned long long) blocks));
      return;
    }
  set_launch (m, gy > 1 ? 2 : 1, gx, gy, 1, block);
  m->thread_side = -1;
  m->why = g_strdup_printf (_("The domain as one index of %llu points in blocks of %llu"
                              " (the occupancy API's suggestion), ceil(points / block) blocks"),
                            (unsigned long long) points, (unsigned long long) block);
}

static char *
format_dims (guint          dims,
             const guint64 *v)
{
  if (dims == 1)
    return g_strdup_printf ("%" G_GUINT64_FORMAT, v[0]);
  if (dims == 2)
    return g_strdup_printf ("dim3(%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT ")", v[0], v[1]);
  return g_strdup_printf ("dim3(%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT ")",
                          v[0], v[1], v[2]);
}

/* Threads, covered points and idle threads from the launch and what each
 * domain side can reach (cap). */
static void
count_threads (const KsIndexDomain *dom,
               const guint64       *cap,
               KsIndexMapping      *m)
{
  guint64 threads = 1;

  for (guint d = 0; d < 3; d++)
    if (!g_uint64_checked_mul (&threads, threads, m->grid[d]) ||
        !g_uint64_checked_mul (&threads, threads, m->block[d]))
      {
        unmapped (m, g_strdup (_("The launch would run more threads than a 64-bit count holds")));
        return;
      }
  m->threads = threads;
  if (m->thread_side < 0)
    m->covered = MIN (m->points, threads);
  else
    {
      m->covered = 1;
      for (guint d = 0; d < 3; d++)
        m->covered *= MIN (dom->n[d], cap[d]);
    }
  m->idle = m->threads - m->covered;
  m->uncovered = m->points - m->covered;
}

void
ks_index_map (const KsIndexDomain *domain,
              KsIndexRule          rule,
              guint64              occupancy_block,
              KsIndexMapping      *out)
{
  Limits lim = { KS_INDEX_PAPER_GRID, FALSE, FALSE, FALSE };
  guint64 cap[3] = { 1, 1, 1 };
  g_autofree char *grid = NULL, *block = NULL;

  g_return_if_fail (domain != NULL && domain->dims >= 1 && domain->dims <= 3);
  g_return_if_fail (rule < KS_INDEX_RULE_N);
  g_return_if_fail (out != NULL);

  memset (out, 0, sizeof *out);
  out->rule = rule;
  out->mapped = TRUE;
  out->points = ks_index_domain_points (domain);
  switch (rule)
    {
    case KS_INDEX_RULE_PAPER:         lim.pow2 = TRUE; break;
    case KS_INDEX_RULE_PAPER_PRINTED: lim.printed = TRUE; break;
    case KS_INDEX_RULE_TODAY:         lim.warp = TRUE; lim.grid_x_max = KS_INDEX_TODAY_GRID_X; break;
    case KS_INDEX_RULE_OCCUPANCY:
    case KS_INDEX_RULE_N:             break;
    }

  if (rule == KS_INDEX_RULE_OCCUPANCY)
    map_flat (domain, occupancy_block, out);
  else if (domain->dims == 1)
    map_1d (domain, &lim, cap, out);
  else if (domain->dims == 2)
    map_2d (domain, &lim, cap, out);
  else
    map_3d (domain, &lim, rule, cap, out);
  if (!out->mapped)
    return;

  count_threads (domain, cap, out);
  if (!out->mapped)
    return;
  grid = format_dims (out->grid_dims, out->grid);
  block = format_dims (out->block_dims, out->block);
  out->launch = g_strdup_printf ("<<<%s, %s>>>", grid, block);
}

void
ks_index_mapping_clear (KsIndexMapping *mapping)
{
  g_return_if_fail (mapping != NULL);

  g_clear_pointer (&mapping->launch, g_free);
  g_clear_pointer (&mapping->why, g_free);
}

gboolean
ks_index_mapping_same_launch (const KsIndexMapping *a,
                              const KsIndexMapping *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  if (a->mapped != b->mapped)
    return FALSE;
  if (!a->mapped)
    return TRUE;
  return memcmp (a->grid, b->grid, sizeof a->grid) == 0 && memcmp (a->block, b->block, sizeof a->block) == 0;
}

KsIndexLayout
ks_index_mapping_layout (const KsIndexDomain  *domain,
                         const KsIndexMapping *m,
                         guint64              *sides)
{
  g_return_val_if_fail (domain != NULL && m != NULL && sides != NULL, KS_INDEX_LAYOUT_1D);

  for (guint d = 0; d < 3; d++)
    sides[d] = d + domain->dims >= 3 ? domain->n[d + domain->dims - 3] : 1;
  if (m->thread_side < 0)
    {
      sides[0] = sides[1] = 1;
      sides[2] = m->points;
    }
  /* The flat launch is D(points) whatever the domain's shape. */
  if (domain->dims == 1 || m->thread_side < 0)
    return KS_INDEX_LAYOUT_1D;
  if (domain->dims == 2)
    return domain->n[1] <= KS_INDEX_PAPER_THREADS ? KS_INDEX_LAYOUT_2D_ROWS : KS_INDEX_LAYOUT_2D_SPLIT;
  return KS_INDEX_LAYOUT_3D;
}

gboolean
ks_index_mapping_diagram (const KsIndexDomain  *domain,
                          const KsIndexMapping *mapping,
                          guint                *domain_x,
                          guint                *domain_y,
                          guint                *block_x,
                          guint                *block_y)
{
  guint64 across, down;

  g_return_val_if_fail (domain != NULL && mapping != NULL, FALSE);
  g_return_val_if_fail (domain_x && domain_y && block_x && block_y, FALSE);

  if (!mapping->mapped || mapping->uncovered > 0)
    return FALSE;
  if (mapping->thread_side < 0)
    {
      across = mapping->points;
      down = 1;
    }
  else
    {
      across = domain->n[mapping->thread_side];
      /* The other side of a 2D domain; N2 of a 3D one (one plane of N1). */
      down = domain->dims == 1 ? 1 : domain->dims == 2 ? domain->n[1 - mapping->thread_side] : domain->n[1];
    }
  if (across > G_MAXUINT || down > G_MAXUINT || mapping->block[0] > G_MAXUINT)
    return FALSE;
  *domain_x = (guint) across;
  *domain_y = (guint) down;
  *block_x = (guint) mapping->block[0];
  *block_y = 1;
  return TRUE;
}
