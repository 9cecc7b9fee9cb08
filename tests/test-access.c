/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The access model (ks-access.h): the textbook counts, the patterns the
 * papers turn on, and every modelled kernel run on an OpenCL device (PoCL
 * in CI) built with -DKS_TRACE, each item's addresses compared with the
 * model's for every variant and two group sizes. */
#include "ks-access.h"
#include "ks-device-list.h"
#include "ks-runtime.h"

#include <stdlib.h>
#include <string.h>

static KsDeviceList *devices;

static void
test_textbook (void)
{
  KsAccess acc[32];
  double ideal;

  for (guint i = 0; i < 32; i++)
    acc[i] = (KsAccess) { .item = i, .size = 4, .offset = 4 * i };
  g_assert_cmpuint (ks_access_count_lines (acc, 32, 128, &ideal), ==, 1);
  g_assert_cmpfloat (ideal, ==, 1.0);
  g_assert_cmpuint (ks_access_count_lines (acc, 32, 32, &ideal), ==, 4);
  g_assert_cmpfloat (ideal, ==, 4.0);
  for (guint i = 0; i < 32; i++)
    acc[i].offset = 1920 * i;
  g_assert_cmpuint (ks_access_count_lines (acc, 32, 128, &ideal), ==, 32);
  g_assert_cmpfloat (ideal, ==, 1.0);
  /* One word read by every item: one line, 4 bytes of use. */
  for (guint i = 0; i < 32; i++)
    acc[i].offset = 64;
  g_assert_cmpuint (ks_access_count_lines (acc, 32, 128, &ideal), ==, 1);
  g_assert_cmpfloat (ideal, ==, 4.0 / 128);
  /* A word across two lines costs both. */
  acc[0] = (KsAccess) { .size = 8, .offset = 124 };
  g_assert_cmpuint (ks_access_count_lines (acc, 1, 128, NULL), ==, 2);
}

/* The lines warp 0 touches at (step, slot 0). */
static guint
first_slot_lines (const KsAccessPoint *p,
                  guint                step)
{
  g_auto(KsAccessModel) m = { 0 };
  g_autoptr(GArray) counts = g_array_new (FALSE, FALSE, sizeof (KsAccessCount));
  g_autoptr(GError) error = NULL;

  g_assert_true (ks_access_model_build (p, &m, &error));
  g_assert_no_error (error);
  ks_access_count_step (&m, 32, 0, step, 128, counts);
  g_assert_cmpuint (counts->len, >, 0);
  g_assert_cmpuint (g_array_index (counts, KsAccessCount, 0).items, ==, 32);
  return g_array_index (counts, KsAccessCount, 0).lines;
}

static void
test_patterns (void)
{
  KsAccessPoint p = { .kernel = KS_ACCESS_MICRO_DIRECT, .group = 64, .rows = 1080, .len = 1920, .edges = 2,
                      .groups = 1 };

  /* 001: direct, 32 rows of 1920 bytes apart; grouped, 2-byte steps. */
  g_assert_cmpuint (first_slot_lines (&p, 5), ==, 32);
  p.kernel = KS_ACCESS_MICRO_GROUPED;
  g_assert_cmpuint (first_slot_lines (&p, 0), ==, 1);
  /* 002: Thomas one system per item; PARACR one row per item. */
  p = (KsAccessPoint) { .kernel = KS_ACCESS_THOMAS_NATURAL, .group = 64, .n = 4095, .systems = 5000, .elem = 4,
                        .groups = 1 };
  g_assert_cmpuint (first_slot_lines (&p, 3), ==, 32);
  /* Row 3 of 5000 systems starts 60000 bytes in, mid-line: two lines. */
  p.kernel = KS_ACCESS_THOMAS_INTERLEAVED;
  g_assert_cmpuint (first_slot_lines (&p, 3), ==, 2);
  p.systems = 5120;
  g_assert_cmpuint (first_slot_lines (&p, 3), ==, 1);
  p.kernel = KS_ACCESS_PARACR_NATURAL;
  g_assert_cmpuint (first_slot_lines (&p, 0), ==, 1);
  p.kernel = KS_ACCESS_PARACR_INTERLEAVED;
  g_assert_cmpuint (first_slot_lines (&p, 0), ==, 32);
}

static void
test_index_idle (void)
{
  KsAccessPoint p = { .kernel = KS_ACCESS_INDEX_MAPPED, .elem = 8, .rule = KS_INDEX_RULE_PAPER };
  g_auto(KsAccessModel) m = { 0 };
  g_autoptr(GError) error = NULL;
  guint idle = 0;

  g_assert_true (ks_index_domain_parse ("5x40", &p.domain, NULL));
  g_assert_true (ks_access_model_build (&p, &m, &error));
  g_assert_no_error (error);
  /* <<<5, 64>>>: 24 of every block's 64 threads idle. */
  g_assert_cmpuint (m.local[0], ==, 64);
  g_assert_cmpuint (m.n_items, ==, 5 * 64);
  for (guint i = 0; i < m.n_items; i++)
    idle += m.idle[i];
  g_assert_cmpuint (idle, ==, 5 * 24);
  g_assert_cmpuint (m.accesses->len, ==, 200);
}

static void
test_refused (void)
{
  KsAccessPoint p = { .kernel = KS_ACCESS_PARACR_NATURAL, .group = 64, .n = 16, .systems = 2, .elem = 4,
                      .level = 4 };
  g_auto(KsAccessModel) m = { 0 };
  g_autoptr(GError) error = NULL;

  g_assert_false (ks_access_model_build (&p, &m, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  p.level = 0, p.group = 0;
  g_assert_false (ks_access_model_build (&p, &m, &error));
  g_assert_nonnull (error);
}

/* ------------------------------------------------------------------ */
/* The kernels, traced                                                */

#define TRACE_ROOM 200000u
#define TRACE_HEAD 32u   /* KS_TRACE_HEAD in kernels/ks-common.h */

typedef struct {
  KsRuntime *rt;
  KsKernel  *kernel;
  KsBuffer  *buffers[8];
  guint      n_buffers;
  guint      arg;
} Run;

static void
run_clear (Run *r)
{
  for (guint i = 0; i < r->n_buffers; i++)
    ks_buffer_unref (r->buffers[i]);
  g_clear_pointer (&r->kernel, ks_kernel_unref);
  g_clear_pointer (&r->rt, ks_runtime_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* A buffer of size bytes, every float of it `fill`, as the next argument. */
static void
arg_buffer (Run   *r,
            gsize  size,
            float  fill)
{
  g_autofree float *data = g_new (float, size / 4 + 1);
  g_autoptr(GError) error = NULL;
  KsBuffer *b;

  for (gsize i = 0; i < size / 4 + 1; i++)
    data[i] = fill;
  b = ks_runtime_alloc (r->rt, size, &error);
  g_assert_no_error (error);
  g_assert_true (ks_runtime_write (r->rt, b, 0, size, data, &error));
  g_assert_true (ks_kernel_set_arg_buffer (r->kernel, r->arg++, b, &error));
  r->buffers[r->n_buffers++] = b;
}

static void
arg (Run         *r,
     gsize        size,
     gconstpointer value)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (ks_kernel_set_arg (r->kernel, r->arg++, size, value, &error));
  g_assert_no_error (error);
}

static int
by_item_place (const void *pa,
               const void *pb)
{
  const KsAccess *a = pa, *b = pb;

  if (a->item != b->item)
    return a->item < b->item ? -1 : 1;
  if (a->buffer != b->buffer)
    return a->buffer < b->buffer ? -1 : 1;
  if (a->offset != b->offset)
    return a->offset < b->offset ? -1 : 1;
  if (a->write != b->write)
    return a->write < b->write ? -1 : 1;
  return (a->size > b->size) - (a->size < b->size);
}

/* The trace read back as accesses (step and slot 0), each address made an
 * offset into the buffer whose start lies closest below it. */
static GArray *
read_trace (Run      *r,
            KsBuffer *trace,
            guint     n_buffers)
{
  g_autofree guint32 *t = g_new (guint32, TRACE_HEAD + 4 * TRACE_ROOM);
  g_autoptr(GError) error = NULL;
  GArray *out = g_array_new (FALSE, FALSE, sizeof (KsAccess));
  guint64 base[8];

  g_assert_true (ks_runtime_read (r->rt, trace, 0, (TRACE_HEAD + 4 * TRACE_ROOM) * 4, t, &error));
  g_assert_cmpuint (t[0], <=, TRACE_ROOM);
  for (guint k = 0; k < n_buffers; k++)
    base[k] = t[2 + 2 * k] | (guint64) t[3 + 2 * k] << 32;
  for (guint e = 0; e < t[0]; e++)
    {
      const guint32 *w = t + TRACE_HEAD + 4 * e;
      const guint64 address = w[1] | (guint64) w[2] << 32;
      KsAccess a = { .item = w[0], .size = w[3] & 0x7fffffffu, .write = w[3] >> 31 };
      int best = -1;

      for (guint k = 0; k < n_buffers; k++)
        if (base[k] <= address && (best < 0 || base[k] > base[best]))
          best = (int) k;
      g_assert_cmpint (best, >=, 0);
      a.buffer = (guint8) best;
      a.offset = address - base[best];
      g_array_append_val (out, a);
    }
  return out;
}

/* Launches r's kernel over the model's range with the trace as its last
 * argument and compares each item's accesses with the model's. */
static void
launch_and_compare (Run                 *r,
                    const KsAccessModel *m)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) got = NULL;
  g_autoptr(GArray) want = g_array_copy (m->accesses);
  guint32 head[2] = { 0, TRACE_ROOM };
  KsLaunchConfig config = { .dims = m->dims };
  KsBuffer *trace;

  arg_buffer (r, (TRACE_HEAD + 4 * TRACE_ROOM) * 4, 0);
  trace = r->buffers[r->n_buffers - 1];
  g_assert_true (ks_runtime_write (r->rt, trace, 0, sizeof head, head, &error));
  for (guint d = 0; d < m->dims; d++)
    config.global[d] = m->global[d], config.local[d] = m->local[d];
  g_assert_true (ks_queue_launch (ks_runtime_get_queue (r->rt), r->kernel, &config, &error));
  g_assert_no_error (error);
  g_assert_true (ks_runtime_finish (r->rt, &error));
  got = read_trace (r, trace, m->n_buffers);
  for (guint i = 0; i < want->len; i++)
    g_array_index (want, KsAccess, i).step = g_array_index (want, KsAccess, i).slot = 0;
  g_array_sort (got, by_item_place);
  g_array_sort (want, by_item_place);
  g_assert_cmpuint (got->len, ==, want->len);
  for (guint i = 0; i < got->len; i++)
    g_assert_cmpint (by_item_place (&g_array_index (got, KsAccess, i), &g_array_index (want, KsAccess, i)), ==, 0);
}

static gboolean
start (Run                 *r,
       const KsAccessPoint *p,
       KsAccessModel       *m,
       const char          *file,
       const char          *options,
       const char          *name)
{
  KsDevice *dev = ks_device_list_find_backend (devices, KS_BACKEND_OPENCL);
  g_autoptr(KsProgram) program = NULL;
  g_autoptr(GError) error = NULL;

  if (dev == NULL)
    {
      g_test_skip ("no OpenCL device");
      return FALSE;
    }
  ks_access_model_build (p, m, &error);
  g_assert_no_error (error);
  r->rt = ks_runtime_new (dev, &error);
  g_assert_no_error (error);
  program = ks_runtime_build_program (r->rt, file, options, &error);
  g_assert_no_error (error);
  r->kernel = ks_program_create_kernel (program, name, &error);
  g_assert_no_error (error);
  return TRUE;
}

static void
trace_micro (KsAccessKernel kernel,
             guint          edges,
             guint          group)
{
  KsAccessPoint p = { .kernel = kernel, .group = group, .rows = 20, .len = 24, .edges = edges };
  const int pad = edges == 1 ? 4 : 0, args[] = { 20, 24, 24 + 2 * pad, pad, 20 + 2 * pad, pad };
  g_autofree char *options = g_strdup_printf ("-DKS_TRACE -DKS_MICRO_EDGE=%u", edges);
  g_auto(KsAccessModel) m = { 0 };
  g_auto(Run) r = { 0 };

  if (!start (&r, &p, &m, "micro-downscale.cl", options,
              kernel == KS_ACCESS_MICRO_DIRECT ? "micro_downscale_direct" : "micro_downscale_grouped"))
    return;
  arg_buffer (&r, (gsize) args[2] * 20, 0);
  arg_buffer (&r, (gsize) 12 * args[4], 0);
  for (guint i = 0; i < G_N_ELEMENTS (args); i++)
    arg (&r, sizeof args[i], &args[i]);
  launch_and_compare (&r, &m);
}

static void
test_trace_micro (void)
{
  for (guint e = 0; e < 3; e++)
    for (guint g = 0; g < 2; g++)
      {
        trace_micro (KS_ACCESS_MICRO_DIRECT, e, g ? 16 : 32);
        trace_micro (KS_ACCESS_MICRO_GROUPED, e, g ? 8 : 32);
      }
}

/* The batch a b c d (diagonally dominant), cp, x, info, the shape. */
static void
tridiag_args (Run                 *r,
              const KsAccessPoint *p,
              gboolean             interleaved)
{
  const gsize bytes = (gsize) p->n * p->systems * 4;
  const guint32 n = p->n, systems = p->systems;
  const guint64 sys_stride = interleaved ? 1 : n, row_stride = interleaved ? systems : 1;

  arg_buffer (r, bytes, 1);
  arg_buffer (r, bytes, 4);
  arg_buffer (r, bytes, 1);
  arg_buffer (r, bytes, 1);
  if (p->kernel <= KS_ACCESS_THOMAS_INTERLEAVED)
    {
      arg_buffer (r, bytes, 0);
      arg_buffer (r, bytes, 0);
    }
  else
    {
      arg_buffer (r, 4 * bytes, 4);
      arg_buffer (r, 4 * bytes, 0);
    }
  arg_buffer (r, systems * 4, 0);
  arg (r, 4, &n);
  arg (r, 4, &systems);
  arg (r, 8, &sys_stride);
  arg (r, 8, &row_stride);
}

static void
test_trace_tridiag (void)
{
  for (KsAccessKernel k = KS_ACCESS_THOMAS_NATURAL; k <= KS_ACCESS_PARACR_INTERLEAVED; k++)
    for (guint g = 0; g < 2; g++)
      for (guint level = 0; level < (k >= KS_ACCESS_PARACR_NATURAL ? 3 : 1); level++)
        {
          const gboolean paracr = k >= KS_ACCESS_PARACR_NATURAL;
          KsAccessPoint p = { .kernel = k, .group = g ? 16 : 32, .n = paracr ? 40 : 6,
                              .systems = paracr ? 3 : 40, .elem = 4, .level = level };
          const guint32 h = 1u << level;
          const gint32 first = level == 0;
          g_auto(KsAccessModel) m = { 0 };
          g_auto(Run) r = { 0 };

          if (!start (&r, &p, &m, "tridiag.cl", "-DKS_TRACE -DKS_REAL=float",
                      paracr ? "paracr_step" : "thomas_global"))
            return;
          tridiag_args (&r, &p, k == KS_ACCESS_THOMAS_INTERLEAVED || k == KS_ACCESS_PARACR_INTERLEAVED);
          if (paracr)
            {
              arg (&r, 4, &h);
              arg (&r, 4, &first);
            }
          launch_and_compare (&r, &m);
        }
}

/* thomas_staged: chunks of 16 rows through local memory; 37 rows leave a
 * short last chunk and 40 systems a group with items past the batch. */
static void
test_trace_staged (void)
{
  for (guint il = 0; il < 2; il++)
    for (guint g = 0; g < 2; g++)
      {
        KsAccessPoint p = { .kernel = il ? KS_ACCESS_THOMAS_STAGED_INTERLEAVED : KS_ACCESS_THOMAS_STAGED_NATURAL,
                            .group = g ? 16 : 32, .n = 37, .systems = 40, .elem = 4 };
        const guint32 chunk = 16;
        g_auto(KsAccessModel) m = { 0 };
        g_auto(Run) r = { 0 };
        g_autoptr(GError) error = NULL;

        if (!start (&r, &p, &m, "tridiag.cl", "-DKS_TRACE -DKS_REAL=float", "thomas_staged"))
          return;
        tridiag_args (&r, &p, il);
        arg (&r, 4, &chunk);
        for (guint k = 0; k < 4; k++)
          g_assert_true (ks_kernel_set_arg_local (r.kernel, r.arg++, chunk * p.group * 4, &error));
        launch_and_compare (&r, &m);
      }
}

static void
test_trace_index (void)
{
  /* Blocks of 1024 (1D), of 64 (a block per row) and of 128 (3D); the
   * split layout (no side within a block) needs a million points. */
  const char *domains[] = { "1500", "5x40", "2x3x40", "2x3x100" };

  for (guint i = 0; i < G_N_ELEMENTS (domains); i++)
    {
      KsAccessPoint p = { .kernel = KS_ACCESS_INDEX_MAPPED, .elem = 4, .rule = KS_INDEX_RULE_PAPER };
      g_auto(KsAccessModel) m = { 0 };
      g_auto(Run) r = { 0 };
      gint32 layout;
      guint64 sides[3];

      g_assert_true (ks_index_domain_parse (domains[i], &p.domain, NULL));
      if (!start (&r, &p, &m, "index.cl", "-DKS_TRACE -DKS_REAL=float", "index_fill_mapped"))
        return;
      for (guint d = 0; d < 3; d++)
        sides[d] = d + p.domain.dims >= 3 ? p.domain.n[d + p.domain.dims - 3] : 1;
      layout = p.domain.dims == 1 ? 0 : p.domain.dims == 3 ? 3 : p.domain.n[1] <= 1024 ? 1 : 2;
      arg_buffer (&r, ks_index_domain_points (&p.domain) * 4, 0);
      for (guint d = 0; d < 3; d++)
        arg (&r, 8, &sides[d]);
      arg (&r, 4, &layout);
      launch_and_compare (&r, &m);
    }
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  devices = ks_device_list_new ();
  g_test_add_func ("/access/textbook", test_textbook);
  g_test_add_func ("/access/patterns", test_patterns);
  g_test_add_func ("/access/index-idle", test_index_idle);
  g_test_add_func ("/access/refused", test_refused);
  g_test_add_func ("/access/trace/micro", test_trace_micro);
  g_test_add_func ("/access/trace/tridiag", test_trace_tridiag);
  g_test_add_func ("/access/trace/staged", test_trace_staged);
  g_test_add_func ("/access/trace/index", test_trace_index);
  status = g_test_run ();
  g_clear_object (&devices);
  return status;
}
