/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-index-map.h: paper 003 (Andrianov et al.): how an index domain D(N),
 * D(N1,N2) or D(N1,N2,N3) is laid onto CUDA blocks and threads.
 *
 * Pure arithmetic, no device: the paper's rules (1024 threads per block,
 * 65,535 blocks per grid dimension), once as its text (and its worked
 * example) says and once as its formulas print them, which disagree; the
 * same rules under today's limits; and one flat launch with the block the
 * occupancy API suggests (ks-index-map-device.c asks a device for it).
 * Each mapping counts the threads it launches, the idle ones, and the
 * domain's points no thread reaches (the printed 2D formula leaves some). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define KS_INDEX_MAP_ERROR (ks_index_map_error_quark ())
GQuark ks_index_map_error_quark (void);

typedef enum {
  KS_INDEX_MAP_ERROR_PARSE,     /* not "N", "N1xN2" or "N1xN2xN3" */
  KS_INDEX_MAP_ERROR_SIDE,      /* a side is zero or negative */
  KS_INDEX_MAP_ERROR_OVERFLOW,  /* a side or the point count does not fit in 64 bits */
  KS_INDEX_MAP_ERROR_MEMORY,    /* the domain's values do not fit in the device's memory */
} KsIndexMapError;

/* The paper's names: n[0] = N1 (slowest), n[dims - 1] the fastest index. */
typedef struct {
  guint   dims;    /* 1 to 3 */
  guint64 n[3];    /* unused sides are 1 */
} KsIndexDomain;

typedef enum {
  /* The paper's rules as its text and its worked example say: a side that
   * fits a block gets the next power of two of threads; with no side
   * within 1024, N2 is split into ceil(N2 / 1024) blocks of 1024
   * (dim3(2000, 3) for 2000 x 3000). */
  KS_INDEX_RULE_PAPER,
  /* As its formulas print them: <<<N1, N2>>> (N2 threads, no rounding) and
   * dim3(N1, (N1 + 1023) / 1024), which leaves points uncovered whenever
   * N1 < N2.  Only the formulas' cases: N2 <= 1024, or both above. */
  KS_INDEX_RULE_PAPER_PRINTED,
  /* The paper's layout under today's limits (gridDim.x up to 2^31 - 1
   * since compute capability 3.0, the grid's z for a third side) with the
   * thread side rounded to the warp (32) only, since a power of two matters
   * to a tree reduction and to nothing else. */
  KS_INDEX_RULE_TODAY,
  /* The domain flattened to one index and launched in blocks of the size
   * the occupancy API suggests (cudaOccupancyMaxPotentialBlockSize's
   * recipe: grid = ceil(points / block)). */
  KS_INDEX_RULE_OCCUPANCY,
  KS_INDEX_RULE_N
} KsIndexRule;

/* The limits of the paper's hardware (Fermi, as the paper states them) and of today's. */
#define KS_INDEX_PAPER_THREADS   1024u
#define KS_INDEX_PAPER_GRID      65535u
#define KS_INDEX_TODAY_GRID_X    G_GUINT64_CONSTANT (2147483647)
#define KS_INDEX_WARP            32u

typedef struct {
  KsIndexRule rule;
  /* FALSE: the rule gives no launch for this domain (the paper has no
   * formula for it, or the grid would pass the limits); why says which. */
  gboolean    mapped;
  guint       grid_dims;      /* 1 to 3, as the launch would be written */
  guint64     grid[3];
  guint       block_dims;
  guint64     block[3];
  /* Which domain side (0 = N1) the block's x threads run along, for the
   * block diagram; the flat occupancy launch has none (-1). */
  int         thread_side;
  guint64     points;         /* the domain's */
  guint64     threads;        /* launched: grid x block */
  guint64     covered;        /* points some thread reaches */
  guint64     idle;           /* threads that reach no point */
  guint64     uncovered;      /* points no thread reaches: a wrong launch */
  char       *launch;         /* "<<<dim3(2000, 3), 1024>>>" */
  char       *why;            /* which rule applied, for the user; translated */
} KsIndexMapping;

/* "2000x3000" ("×", "," and spaces also separate sides; "D(2000, 3000)"
 * too).  Every failure names the value and the limit. */
gboolean     ks_index_domain_parse     (const char          *text,
                                        KsIndexDomain       *out,
                                        GError             **error);
/* The same checks for sides given as numbers (negative ones included). */
gboolean     ks_index_domain_init      (KsIndexDomain       *out,
                                        guint                dims,
                                        const gint64        *sides,
                                        GError             **error);
/* "2000 × 3000". */
char        *ks_index_domain_to_string (const KsIndexDomain *domain);
guint64      ks_index_domain_points    (const KsIndexDomain *domain);
/* Refuses a domain whose values (elem_size bytes per point) do not fit in
 * one buffer of max_alloc bytes or in global_mem (0: unknown, not checked);
 * device_name is for the message. */
gboolean     ks_index_domain_check_memory (const KsIndexDomain *domain,
                                           gsize                elem_size,
                                           guint64              max_alloc,
                                           guint64              global_mem,
                                           const char          *device_name,
                                           GError             **error);

const char  *ks_index_rule_to_string   (KsIndexRule          rule);  /* "paper", "printed", ... */
const char  *ks_index_rule_label       (KsIndexRule          rule);  /* translated */

/* The least power of two >= n (1 for 0 and 1): the paper's thread count. */
guint64      ks_index_next_pow2        (guint64              n);

/* Fills out (clear it with ks_index_mapping_clear).  occupancy_block is
 * the suggested block for KS_INDEX_RULE_OCCUPANCY (0: not known, then the
 * mapping is not made and why says so); the other rules ignore it. */
void         ks_index_map              (const KsIndexDomain *domain,
                                        KsIndexRule          rule,
                                        guint64              occupancy_block,
                                        KsIndexMapping      *out);
void         ks_index_mapping_clear    (KsIndexMapping      *mapping);
/* Whether two mappings launch the same grid and block. */
gboolean     ks_index_mapping_same_launch (const KsIndexMapping *a,
                                           const KsIndexMapping *b);

/* index_fill_mapped's layouts (kernels/index.cl's KS_INDEX_LAYOUT_*). */
typedef enum {
  KS_INDEX_LAYOUT_1D,        /* D(N), or any domain flattened: blocks of threads */
  KS_INDEX_LAYOUT_2D_ROWS,   /* D(N1, N2), N2 within a block: one block per row */
  KS_INDEX_LAYOUT_2D_SPLIT,  /* no side within a block: dim3(N1, ceil(N2 / T)) */
  KS_INDEX_LAYOUT_3D,        /* dim3(N1, N2[, ceil(N3 / T)]), blocks along N3 */
} KsIndexLayout;

/* How index_fill_mapped runs a mapped launch (its thread side not N1 of a
 * 2D domain): the layout, and the sides as the kernel takes them,
 * right-aligned (D(N) is (1, 1, N), D(N1, N2) is (1, N1, N2); the flat
 * launch D(points)).  ks-index-solver.c launches it so, ks-access.c models
 * it. */
KsIndexLayout ks_index_mapping_layout  (const KsIndexDomain  *domain,
                                        const KsIndexMapping *mapping,
                                        guint64              *sides);

/* What a grid-of-blocks diagram (ks_plot_set_blocks) draws for a mapping:
 * the side the threads run along across, the side of the blocks down (in
 * 3D one plane of N1; the flat launch as one row).  FALSE where the
 * diagram cannot show the launch: not mapped, points left unreached (the
 * diagram would cover them), or a side past 2^32 - 1. */
gboolean     ks_index_mapping_diagram  (const KsIndexDomain  *domain,
                                        const KsIndexMapping *mapping,
                                        guint                *domain_x,
                                        guint                *domain_y,
                                        guint                *block_x,
                                        guint                *block_y);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (KsIndexMapping, ks_index_mapping_clear)

G_END_DECLS
