/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-framework-files: the experiment framework's files and figures
 * through the test experiment (ks-exp-test.c; see test-framework.c): the
 * JSON and CSV files (round trips, wrong types, deep nesting), the paper's
 * values, the generic figure; and every recorded Gauss run in
 * data/reference/ read through the new path unchanged. */
#include "ks-engine.h"
#include "ks-exp-gauss.h"
#include "ks-exp-test.h"
#include "ks-figure.h"
#include "ks-recorded.h"
#include "ks-registry.h"
#include "ks-run.h"
#include "ks-run-json-private.h"
#include "ks-test-framework-util.h"

#include <math.h>
#include <string.h>

/* Where two texts part, for a message a reader can act on. */
static char *
first_difference (const char *a,
                  const char *b)
{
  g_auto(GStrv) x = g_strsplit (a, "\n", -1);
  g_auto(GStrv) y = g_strsplit (b, "\n", -1);
  guint i = 0;

  while (x[i] && y[i] && strcmp (x[i], y[i]) == 0)
    i++;
  return g_strdup_printf ("line %u: \"%s\" / \"%s\"", i + 1, x[i] ? x[i] : "(end)", y[i] ? y[i] : "(end)");
}

/* --- files ------------------------------------------------------------------------ */

static KsRun *
measured_run (void)
{
  const char *settings[] = { "size", "1:3", "shape", "square,wide", NULL };
  g_autoptr(KsEngine) engine = engine_with (settings, 0, 2);

  ks_engine_set_command (engine, "kernelscope-cli run test-sweep --size 1:3");
  g_assert_true (ks_engine_run (engine, NULL, NULL));
  return ks_run_ref (ks_engine_get_run (engine));
}

static void
test_json_round_trip (void)
{
  g_autoptr(KsRun) run = measured_run ();
  g_autoptr(KsRun) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  g_autofree char *again = NULL;
  KsRunPoint *p = run->points->pdata[0];
  const double odd[] = { 1e308, -INFINITY, NAN, 0.1, 4.9e-324, -0.0 };

  /* Numbers a JsonGenerator would write so that they cannot be read back. */
  p->values[0] = odd[0];
  p->lo[0] = odd[1];
  p->hi[0] = odd[2];
  ((KsRunPoint *) run->points->pdata[1])->values[0] = odd[3];
  ((KsRunPoint *) run->points->pdata[2])->values[0] = odd[4];
  ((KsRunPoint *) run->points->pdata[3])->values[0] = odd[5];
  json = ks_run_to_json (run);
  back = ks_run_from_json (json, -1, &error);
  g_assert_no_error (error);
  again = ks_run_to_json (back);
  if (strcmp (json, again) != 0)
    g_error ("written, read and written again, the file differs: %s", first_difference (json, again));
  g_assert_true (back->desc == &ks_exp_test);
  g_assert_cmpstr (back->command, ==, "kernelscope-cli run test-sweep --size 1:3");
  g_assert_cmpfloat (((KsRunPoint *) back->points->pdata[0])->values[0], ==, 1e308);
  g_assert_true (isinf (((KsRunPoint *) back->points->pdata[0])->lo[0]));
  g_assert_true (isnan (((KsRunPoint *) back->points->pdata[0])->hi[0]));
  g_assert_cmpfloat (((KsRunPoint *) back->points->pdata[1])->values[0], ==, 0.1);
  g_assert_cmpfloat (((KsRunPoint *) back->points->pdata[2])->values[0], ==, 4.9e-324);
  g_assert_nonnull (strstr (json, "\"value_ms\": 1e+308,"));
  g_assert_nonnull (strstr (json, "\"value_ms_min\": \"-inf\""));
  g_assert_cmpuint (back->points->len, ==, run->points->len);
  g_assert_cmpstr (((KsRunPoint *) back->points->pdata[5])->error, ==, "wide 3 does not fit");
}

/* One field of every point (of the top level for experiment) replaced:
 * the error names it. */
static void
assert_bad_point (const char *json,
                  const char *field,
                  const char *value,
                  const char *phrase)
{
  g_autofree char *pattern = strcmp (field, "experiment") == 0 ? g_strdup ("(\"experiment\": )[^,]*")
                             : strcmp (field, "device") == 0 ? g_strdup ("(\\{\"device\": )[0-9]+")
                             : g_strdup_printf ("(\\{\"device\": [0-9]+,[^\n]*?\"%s\": )[^,}]*", field);
  g_autoptr(GRegex) regex = g_regex_new (pattern, 0, 0, NULL);
  g_autofree char *bad = NULL;
  g_autofree char *replacement = g_strdup_printf ("\\g<1>%s", value);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsRun) run = NULL;

  bad = g_regex_replace (regex, json, -1, 0, replacement, G_REGEX_MATCH_NOTEMPTY, NULL);
  g_assert_cmpstr (bad, !=, json);
  run = ks_run_from_json (bad, -1, &error);
  g_assert_null (run);
  g_assert_true (error->domain == KS_RUN_ERROR);
  if (!strstr (error->message, phrase))
    g_error ("%s = %s: \"%s\" lacks \"%s\"", field, value, error->message, phrase);
}

static void
test_json_refused (void)
{
  g_autoptr(KsRun) run = measured_run ();
  g_autofree char *json = ks_run_to_json (run);
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  assert_bad_point (json, "size", "\"a\"", "\"size\" must be a whole number");
  assert_bad_point (json, "size", "1.5", "\"size\" must be a whole number");
  assert_bad_point (json, "shape", "\"round\"", "\"shape\" has an unknown value \"round\"");
  assert_bad_point (json, "shape", "[1, 2]", "\"shape\" must be a string");
  assert_bad_point (json, "value_ms", "[1, 2]", "\"value_ms\" must be a number");
  assert_bad_point (json, "value_ms", "\"fast\"", "\"value_ms\" must be a number");
  assert_bad_point (json, "device", "7", "\"device\" = 7 is out of range");
  assert_bad_point (json, "fast", "0", "\"fast\" must be true or false");
  assert_bad_point (json, "reps", "null", "has no \"reps\"");
  assert_bad_point (json, "experiment", "\"nothing\"", "Unknown experiment");

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  g_assert_null (ks_run_from_json (deep->str, deep->len, &error));
  g_assert_nonnull (strstr (error->message, "nested more than 64 deep"));
  g_clear_error (&error);
  g_assert_null (ks_run_from_json ("{\"format\": 3, \"experiment\": \"test-sweep\"}", -1, &error));
  g_assert_nonnull (strstr (error->message, "format 3"));
}

/* The points array is read by a scanner, the rest by json-glib; what the
 * scanner does not take (here a member name with an escape) sends the
 * whole file through json-glib.  Both must read the same run, numbers to
 * the last bit (the scanner's own decimal reading included). */
static void
test_json_scanner_agrees (void)
{
  g_autoptr(KsRun) run = measured_run ();
  const double odd[] = { 0.1, 1e-22, 123456789012345.6, 9007199254740993.0, 2.2250738585072014e-308, 5e-324,
                         1.7976931348623157e308, 0.000123, 3.292850548981857e-07, 1e22, 1e23, -0.0,
                         4503599627370497.5, -2.494, 100.0 };
  g_autoptr(KsRun) fast = NULL, slow = NULL;
  g_autoptr(KsRun) scanned = ks_run_new (run->desc);
  g_autoptr(KsRunJsonSlots) slots = ks_run_json_slots_new (run->desc);
  g_autofree gboolean *written = g_new0 (gboolean, run->desc->n_columns);
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL, *escaped = NULL, *fast_json = NULL, *slow_json = NULL;
  gsize start, end;
  guint k = 0;

  for (guint i = 0; i < run->points->len && k < G_N_ELEMENTS (odd); i++)
    {
      KsRunPoint *p = run->points->pdata[i];

      if (p->error != NULL)
        continue;
      p->values[0] = odd[k++];
      p->lo[0] = k < G_N_ELEMENTS (odd) ? odd[k++] : 0;
      p->hi[0] = k < G_N_ELEMENTS (odd) ? odd[k++] : 0;
    }
  /* A refusal's message may quote: the scanner unescapes it. */
  for (guint i = 0; i < run->points->len; i++)
    {
      KsRunPoint *p = run->points->pdata[i];

      if (p->error != NULL)
        {
          g_free (p->error);
          p->error = g_strdup ("wide 3 \"does\"\tnot fit/\\ \u00e9\n");
        }
    }
  json = ks_run_to_json (run);

  /* The scanner takes the file as written. */
  g_assert_true (ks_run_json_find_member (json, strlen (json), "points", &start, &end));
  for (guint i = 0; i < run->devices->len; i++)
    g_ptr_array_add (scanned->devices, ks_run_device_new ());
  g_assert_true (ks_run_json_scan_points (scanned, slots, json + start, end - start, written));
  g_assert_cmpuint (scanned->points->len, ==, run->points->len);
  for (guint i = 0; i < run->points->len; i++)
    {
      KsRunPoint *a = run->points->pdata[i], *b = scanned->points->pdata[i];

      g_assert_cmpmem (a->values, sizeof (double) * run->desc->n_columns, b->values,
                       sizeof (double) * run->desc->n_columns);
      g_assert_cmpmem (a->lo, sizeof (double), b->lo, sizeof (double));
      g_assert_cmpmem (a->hi, sizeof (double), b->hi, sizeof (double));
      g_assert_cmpstr (a->error, ==, b->error);
    }

  /* An escape it does not take: json-glib reads it all, to the same run. */
  {
    g_autoptr(GString) s = g_string_new (json);
    g_autoptr(KsRun) refused = ks_run_new (run->desc);

    g_string_replace (s, "{\"device\": ", "{\"\\u0078\": 1, \"device\": ", 1);
    escaped = g_string_free (g_steal_pointer (&s), FALSE);
    g_assert_true (ks_run_json_find_member (escaped, strlen (escaped), "points", &start, &end));
    g_ptr_array_add (refused->devices, ks_run_device_new ());
    g_assert_false (ks_run_json_scan_points (refused, slots, escaped + start, end - start, written));
  }
  fast = ks_run_from_json (json, -1, &error);
  g_assert_no_error (error);
  slow = ks_run_from_json (escaped, -1, &error);
  g_assert_no_error (error);
  fast_json = ks_run_to_json (fast);
  slow_json = ks_run_to_json (slow);
  if (strcmp (fast_json, json) != 0 || strcmp (slow_json, json) != 0)
    g_error ("the two readers differ: %s; %s", first_difference (json, fast_json), first_difference (json, slow_json));
}

/* The widest value a column or parameter of its kind is written as. */
static GVariant *
widest_param (const KsParamSpec *spec)
{
  const char *longest = "";

  switch (spec->type)
    {
    case KS_PARAM_INT:
      return g_variant_new_int64 (G_MININT64);
    case KS_PARAM_REAL:
      return g_variant_new_double (-1.2345678901234567e-300);
    case KS_PARAM_BOOL:
      return g_variant_new_boolean (FALSE);
    case KS_PARAM_CHOICE:
      for (const KsChoice *c = spec->choices; c && c->value; c++)
        longest = strlen (c->value) > strlen (longest) ? c->value : longest;
      return g_variant_new_string (longest);
    default:
      return g_variant_new_string ("a path of some length/a path of some length/file.txt");
    }
}

/* The engine measures up to KS_MAX_POINTS points; the file it writes of
 * them must not be one the reader refuses as too large (a 10^6-point
 * Gauss run, ~570 MB, was refused at 256 MiB). */
static void
test_json_largest_run (void)
{
  g_autoptr(GPtrArray) all = ks_registry_list ();

  for (guint d = 0; d < all->len; d++)
    {
      const KsExperimentDesc *desc = all->pdata[d];
      g_autoptr(KsRun) run = ks_run_new (desc);
      KsRunPoint *p = ks_run_point_new (run);
      g_autofree char *json = NULL;
      const char *line, *line_end;

      g_ptr_array_add (run->devices, ks_run_device_new ());
      for (guint i = 0; i < desc->n_params; i++)
        p->params[i] = g_variant_ref_sink (widest_param (&desc->params[i]));
      for (guint i = 0; i < desc->n_columns; i++)
        p->values[i] = p->lo[i] = p->hi[i] = desc->columns[i].kind == KS_COLUMN_INT ? -8999999999999999.0
                                                                                     : -1.2345678901234567e-300;
      p->reps = G_MAXUINT;
      ks_run_add_point (run, p);
      json = ks_run_to_json (run);
      line = strstr (json, "\n    {\"device\"");
      g_assert_nonnull (line);
      line_end = strchr (line + 1, '\n');
      g_assert_nonnull (line_end);
      if ((guint64) KS_MAX_POINTS * (line_end - line + 1) + strlen (json) > (guint64) KS_RUN_MAX_FILE_SIZE)
        g_error ("%s: %d points of %d bytes exceed the %" G_GINT64_FORMAT " bytes a results file may have",
                 desc->id, KS_MAX_POINTS, (int) (line_end - line + 1), (gint64) KS_RUN_MAX_FILE_SIZE);
    }
}

static void
test_csv (void)
{
  g_autoptr(KsRun) run = measured_run ();
  g_autofree char *csv = NULL;
  g_auto(GStrv) lines = NULL;

  g_free (((KsRunPoint *) run->points->pdata[5])->error);
  ((KsRunPoint *) run->points->pdata[5])->error = g_strdup ("a reason, \"quoted\"");
  csv = ks_run_to_csv (run);
  lines = g_strsplit (csv, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "device,size,shape,depth,scale,fast,label,source,input,lanes,value_ms,value_ms_min,"
                                 "value_ms_max,count,lanes_seen,big,ratio,vs_square,error");
  g_assert_cmpstr (lines[1], ==, "host,1,square,,1.5,false,none,generated,,,2,1.5,2.5,2,,0,1,1,");
  g_assert_cmpstr (lines[6], ==, "host,3,wide,,1.5,false,none,generated,,,,,,,,,,,\"a reason, \"\"quoted\"\"\"");
  g_assert_cmpstr (lines[7], ==, "");
  g_assert_null (lines[8]);
}

/* The paper's numbers beside the run's: a column at the point of its
 * where, or a number about the device. */
static void
test_paper_values (void)
{
  g_autoptr(KsRun) run = measured_run ();
  const KsPaperValue info = { "", "answer", 42, NULL, "a source", NULL };
  const KsPaperValue missing = { "size=9", "value_ms", 1, "ms", "a source", NULL };
  const KsPaperValue wrong = { "size=2 shape=round", "value_ms", 1, "ms", "a source", NULL };

  g_assert_true (ks_run_point_matches (run, run->points->pdata[2], "size=2 shape=square"));
  g_assert_true (ks_run_point_matches (run, run->points->pdata[2], ""));
  g_assert_false (ks_run_point_matches (run, run->points->pdata[2], "size=2 shape=wide"));
  g_assert_false (ks_run_point_matches (run, run->points->pdata[2], "depth=1"));   /* does not apply */
  /* size 2, square, scale 1.5: 3 + k for k = 0, 1: the median 3.5. */
  g_assert_cmpfloat (ks_run_measured_for (run, &ks_exp_test.paper_values[0], 0), ==, 3.5);
  g_assert_cmpfloat (ks_run_measured_for (run, &info, 0), ==, 42);
  g_assert_true (isnan (ks_run_measured_for (run, &missing, 0)));
  g_assert_true (isnan (ks_run_measured_for (run, &wrong, 0)));
  g_assert_true (isnan (ks_run_measured_for (run, &info, 1)));
}

/* Every recorded run loads through the one model (the Gauss runs were
 * format 1 until issue 29 converted them), writes and reads back to the
 * very same text, and its first figure draws something. */
static void
test_reference_runs (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "..", "data", "reference", NULL);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n_gauss = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(KsRun) run = NULL;
      g_autoptr(KsRun) read = NULL;
      g_autofree char *text = NULL, *text2 = NULL;
      g_autoptr(KsPlot) plot = NULL;
      KsFigureOptions options;

      if (!g_str_has_suffix (name, ".json") || strstr (name, "-bench-") || g_str_has_suffix (name, "-devices.json"))
        continue;
      g_test_message ("%s", name);
      run = ks_run_load_json (path, &error);
      g_assert_no_error (error);
      text = ks_run_to_json (run);
      read = ks_run_from_json (text, -1, &error);
      g_assert_no_error (error);
      text2 = ks_run_to_json (read);
      g_assert_cmpstr (text, ==, text2);
      g_assert_cmpuint (ks_run_count_measured (run), >, 0);
      ks_figure_options_init (&options);
      plot = ks_figure_plot_new (NULL, &run, 1, &options);
      g_assert_cmpuint (ks_plot_get_n_series (plot), >, 0);
      n_gauss += run->desc == &ks_exp_gauss_size || run->desc == &ks_exp_gauss_wg;
    }
  g_assert_cmpuint (n_gauss, >=, 19);
}

/* The shipped runs by experiment, named as the figures name them. */
/* Every page that names the recorded run it opens with on a machine
 * without a GPU (recorded_demo) names one shipped in data/reference of
 * its own experiment: a misspelt or removed name would fall back,
 * unseen, to the first run by name. */
static void
test_recorded_demo (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "..", "data", "reference", NULL);
  g_autoptr(GPtrArray) descs = ks_registry_list ();
  guint named = 0;

  g_setenv ("KERNELSCOPE_REFERENCE_DIR", dir, TRUE);
  for (guint i = 0; i < descs->len; i++)
    {
      const KsExperimentDesc *desc = descs->pdata[i];
      g_autoptr(GPtrArray) found = NULL;
      gboolean seen = FALSE;

      if (desc->recorded_demo == NULL)
        continue;
      found = ks_recorded_list (desc);
      for (guint j = 0; j < found->len; j++)
        {
          g_autofree char *base = g_path_get_basename (((KsRecorded *) found->pdata[j])->path);

          seen = seen || strcmp (base, desc->recorded_demo) == 0;
        }
      if (!seen)
        g_error ("%s opens with %s, which is not one of its runs in %s", desc->id, desc->recorded_demo, dir);
      named++;
    }
  g_unsetenv ("KERNELSCOPE_REFERENCE_DIR");
  g_assert_cmpuint (named, >=, 4);
}

static void
test_recorded (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "..", "data", "reference", NULL);
  g_autoptr(GPtrArray) size = NULL;
  g_autoptr(GPtrArray) wg = NULL;
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(GPtrArray) test = NULL;
  gboolean graph = FALSE;

  g_setenv ("KERNELSCOPE_REFERENCE_DIR", dir, TRUE);
  size = ks_recorded_list (&ks_exp_gauss_size);
  wg = ks_recorded_list (&ks_exp_gauss_wg);
  all = ks_recorded_list (NULL);
  test = ks_recorded_list (&ks_exp_test);
  g_unsetenv ("KERNELSCOPE_REFERENCE_DIR");

  /* Paper 000's H200 runs (nine and ten of them converted from format 1);
   * every top-level JSON is a recorded run of some experiment. */
  g_assert_cmpuint (size->len, >=, 9);
  g_assert_cmpuint (wg->len, >=, 10);
  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;
    guint files = 0;

    while (d && (name = g_dir_read_name (d)))
      files += g_str_has_suffix (name, ".json");
    g_assert_cmpuint (all->len, ==, files);
  }
  g_assert_cmpuint (test->len, ==, 0);
  /* Read once: a page that looks again (every page does when first
   * shown) gets the same runs without reading megabytes of JSON again. */
  {
    g_autoptr(GPtrArray) again = NULL;

    g_setenv ("KERNELSCOPE_REFERENCE_DIR", dir, TRUE);
    again = ks_recorded_list (&ks_exp_gauss_size);
    g_unsetenv ("KERNELSCOPE_REFERENCE_DIR");
    g_assert_cmpuint (again->len, ==, size->len);
    for (guint i = 0; i < size->len; i++)
      g_assert_true (((KsRecorded *) again->pdata[i])->run == ((KsRecorded *) size->pdata[i])->run);
  }
  for (guint i = 0; i < size->len; i++)
    {
      const KsRecorded *r = size->pdata[i];

      g_assert_true (r->run->desc == &ks_exp_gauss_size);
      g_assert_true (g_str_has_prefix (r->label, "recorded: NVIDIA H200 ("));
      if (strstr (r->path, "fig2-graph"))
        {
          g_assert_cmpstr (r->label, ==, "recorded: NVIDIA H200 (CUDA graph)");
          graph = TRUE;
        }
      if (i > 0)
        g_assert_cmpint (strcmp (((KsRecorded *) size->pdata[i - 1])->path, r->path), <, 0);
    }
  g_assert_true (graph);
}

/* A format-1 file (what the Gauss pages wrote before descriptions; the
 * shipped runs were converted from these) reads into the one model as
 * exactly the run its converted twin in data/reference holds. */
static void
test_format1 (void)
{
  const char *twins[] = { "h200-cuda-fig5-wg1.json", "h200-opencl-gauss-size-driver.json" };
  g_autofree char *graph_path = g_test_build_filename (G_TEST_DIST, "format1", "h200-cuda-fig2-graph-3.json", NULL);
  g_autoptr(KsRun) graph = NULL;
  g_autofree char *name = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (twins); i++)
    {
      g_autofree char *old_path = g_test_build_filename (G_TEST_DIST, "format1", twins[i], NULL);
      g_autofree char *new_path = g_test_build_filename (G_TEST_DIST, "..", "data", "reference", twins[i], NULL);
      g_autoptr(KsRun) old = ks_run_load_json (old_path, &error);
      g_autofree char *expected = NULL;
      g_autofree char *text = NULL;

      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (new_path, &expected, NULL, NULL));
      text = ks_run_to_json (old);
      if (strcmp (text, expected) != 0)
        g_error ("%s: format 1 read is not its converted twin: %s", twins[i], first_difference (expected, text));
    }
  graph = ks_run_load_json (graph_path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (graph->points->len, ==, 3);
  g_assert_true (g_variant_get_boolean (ks_run_point_get_param (graph, graph->points->pdata[0], "graph")));
  name = ks_run_get_name (graph);
  g_assert_cmpstr (name, ==, "NVIDIA H200 (CUDA graph)");
}

/* A damaged format-1 file says which member is wrong. */
static void
test_format1_refused (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "format1", "h200-cuda-fig5-wg1.json", NULL);
  g_autofree char *data = NULL;
  const struct { const char *from, *to, *says; } cases[] = {
    { "\"fwd_local\" : [\n        1,\n        1\n      ]", "\"fwd_local\" : [32, 1, 2]", "\"fwd_local\" must have 2" },
    { "\"fwd_local\" : [\n        1,\n        1\n      ]", "\"fwd_local\" : [\"a\", \"b\"]", "\"fwd_local\" must have 2" },
    { "\"fwd_local\" : [\n        1,\n        1\n      ]", "\"fwd_local\" : [1.5, 2.7]", "\"fwd_local\" must have 2" },
    { "\"local\" : \"explicit\"", "\"local\" : \"sideways\"", "unknown value \"sideways\"" },
    { "\"device\" :", "\"devices\" :", "has no \"device\"" },
    { "\"median_ms\" :", "\"middle_ms\" :", "has no \"median_ms\"" },
    { "\"launch\" :", "\"launch\" : \"sideways\", \"x\" :", "unknown value \"sideways\"" },
  };

  g_assert_true (g_file_get_contents (path, &data, NULL, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GString) broken = g_string_new (data);
      g_autoptr(GError) error = NULL;
      g_autoptr(KsRun) run = NULL;

      /* The launch case only where the file has one: add it. */
      if (strstr (cases[i].from, "launch") && !strstr (data, "\"launch\""))
        g_assert_cmpuint (g_string_replace (broken, "\"warmup\" :", "\"launch\" : \"sideways\", \"warmup\" :", 1),
                          ==, 1);
      else
        g_assert_cmpuint (g_string_replace (broken, cases[i].from, cases[i].to, 1), ==, 1);
      run = ks_run_from_json (broken->str, -1, &error);
      g_assert_null (run);
      g_assert_error (error, KS_RUN_ERROR, KS_RUN_ERROR_PARSE);
      if (!strstr (error->message, cases[i].says))
        g_error ("case %u: \"%s\" does not say %s", i, error->message, cases[i].says);
    }
}

/* --- figures --------------------------------------------------------------------------- */

static void
test_figure (void)
{
  g_autoptr(KsRun) run = measured_run ();
  g_autoptr(KsRun) other = measured_run ();
  g_autoptr(KsPlot) plot = NULL;
  g_autoptr(KsPlot) ratio = NULL;
  g_autoptr(KsPlot) both = NULL;
  KsRun *runs[] = { run, other };
  KsFigureOptions options;
  const KsPlotPoint *p;

  ks_figure_options_init (&options);
  plot = ks_figure_plot_new (NULL, &run, 1, &options);
  g_assert_cmpstr (ks_plot_get_title (plot), ==, "Value vs size");
  g_assert_cmpuint (ks_plot_get_n_series (plot), ==, 2);
  g_assert_cmpstr (ks_plot_series_get_name (plot, 0), ==, "Shape = square");
  g_assert_cmpstr (ks_plot_series_get_name (plot, 1), ==, "Shape = wide");
  g_assert_cmpuint (ks_plot_series_get_n_points (plot, 0), ==, 3);
  g_assert_cmpuint (ks_plot_series_get_n_points (plot, 1), ==, 2);   /* wide 3 refused */
  p = ks_plot_series_get_point (plot, 0, 0);
  g_assert_cmpfloat (p->y, ==, 2.0);     /* the median of 1.5 and 2.5 */
  g_assert_cmpfloat (p->y_lo, ==, 1.5);
  g_assert_cmpfloat (p->y_hi, ==, 2.5);
  g_assert_cmpint (p->flags, ==, KS_PLOT_POINT_BEST);
  g_assert_cmpstr (p->label, ==, "best 1");
  p = ks_plot_series_get_point (plot, 0, 2);
  g_assert_cmpint (p->flags, ==, KS_PLOT_POINT_HIGHLIGHT);
  g_assert_cmpstr (p->label, ==, "size 3");

  options.min_x = 2;
  ratio = ks_figure_plot_new (&ks_exp_test.figures[1], &run, 1, &options);
  /* No series_by, but shape is swept: a curve per shape all the same
   * (one curve through both would zig-zag): square 2, 3 and wide 2 (wide
   * 3 was refused). */
  g_assert_cmpuint (ks_plot_get_n_series (ratio), ==, 2);
  g_assert_cmpstr (ks_plot_series_get_name (ratio, 0), ==, "Shape = square");
  g_assert_cmpuint (ks_plot_series_get_n_points (ratio, 0), ==, 2);
  g_assert_cmpuint (ks_plot_series_get_n_points (ratio, 1), ==, 1);

  /* Two runs: each curve says whose it is; a recorded one is dashed. */
  ks_figure_options_init (&options);
  both = ks_figure_plot_new (NULL, runs, 2, &options);
  g_assert_cmpuint (ks_plot_get_n_series (both), ==, 4);
  g_assert_nonnull (strstr (ks_plot_series_get_name (both, 2), "(host), Shape = square"));
  ks_figure_add_recorded (NULL, both, run, &options);
  g_assert_cmpuint (ks_plot_get_n_series (both), ==, 6);
  g_assert_true (g_str_has_prefix (ks_plot_series_get_name (both, 4), "recorded: "));
}

int
main (int    argc,
      char **argv)
{
  ks_test_framework_init (&argc, &argv);

  g_test_add_func ("/framework/json/round-trip", test_json_round_trip);
  g_test_add_func ("/framework/json/refused", test_json_refused);
  g_test_add_func ("/framework/json/scanner-agrees", test_json_scanner_agrees);
  g_test_add_func ("/framework/json/largest-run", test_json_largest_run);
  g_test_add_func ("/framework/csv", test_csv);
  g_test_add_func ("/framework/paper-values", test_paper_values);
  g_test_add_func ("/framework/reference-runs", test_reference_runs);
  g_test_add_func ("/framework/format1", test_format1);
  g_test_add_func ("/framework/format1-refused", test_format1_refused);
  g_test_add_func ("/framework/recorded", test_recorded);
  g_test_add_func ("/framework/recorded-demo", test_recorded_demo);
  g_test_add_func ("/framework/figure", test_figure);

  return ks_test_framework_run ();
}
