/* SPDX-License-Identifier: GPL-3.0-or-later */
/* F1's help (ks-page-help.h) without a display: for a description of the
 * test's own (every kind of mark, a "<" in a help) and for every
 * registered one, each parameter's label and help, each figure's marks
 * and the paper's paragraph are in the text, and the markup parses.  Run
 * again under LANGUAGE=ru (test-page-help-ru) it checks that the help is
 * Russian: no line of the English help is left in it. */
#include "ks-page-help.h"
#include "ks-test-help-util.h"
#include "ks-registry.h"

#include <glib/gi18n-lib.h>
#include <locale.h>
#include <pango/pango.h>
#include <string.h>

/* --- a description with every mark -------------------------------------------- */

static const KsChoice mode_choices[] = {
  { "slow", "slow mode", "Each point waits a < b & c", 0 },
  { "fast", "fast mode", NULL, 1 },
  { NULL }
};

static const KsParamSpec params[] = {
  { .name = "size", .label = "Size of the thing", .unit = "MiB", .type = KS_PARAM_INT,
    .help = "How big the thing is", .default_value = "1", .min = 1, .max = 10, .sweepable = TRUE },
  { .name = "mode", .label = "Mode of going", .type = KS_PARAM_CHOICE, .choices = mode_choices,
    .default_value = "slow", .help = "How it goes" },
  { .name = "extra", .label = "Extra care", .type = KS_PARAM_BOOL, .default_value = "false",
    .help = "Take extra care of T₀", .when = { "mode", { "fast", NULL } }, .backends = KS_BACKENDS_GPU },
};

static const KsColumnSpec columns[] = {
  { "time_ms", "time taken", "ms", "Wall time of one go", KS_COLUMN_REAL, KS_REDUCE_MEDIAN_RANGE },
  { "odd", "odd one", NULL, "The size is odd", KS_COLUMN_BOOL, KS_REDUCE_LAST },
  { "rate", "rate of going", "GB/s", NULL, KS_COLUMN_REAL, KS_REDUCE_MEDIAN },
};

static const KsColumnSpec device_info[] = {
  { "guess", "guessed best size", NULL, "What the rule of thumb picks" },
};

static const KsFigureSpec figures[] = {
  { .id = "lines", .title = "Time against size", .x = "size", .y = "time_ms", .series_by = "mode",
    .highlight = "odd", .highlight_legend = "odd sizes", .mark_best = TRUE, .log2_x = TRUE, .log_y = TRUE,
    .vline_info = "guess", .vline_label = "guess %g", .hline_info = "roof", .hline_label = "roof: %g GB/s",
    .y2 = "rate", .show_paper = TRUE, .min_x_help = "Leave out sizes below this" },
  { .id = "bars", .title = "Time by mode", .x = "mode", .y = "time_ms", .categorical_x = TRUE,
    .show_paper = TRUE },
};

static const KsExperimentDesc test_desc = {
  .id = "help-test", .title = "Help test", .paper = "000", .paper_title = "Someone (2000): a paper",
  .claim = "The paper says that x < y.",
  .backends = KS_BACKENDS_GPU,
  .params = params, .n_params = G_N_ELEMENTS (params),
  .columns = columns, .n_columns = G_N_ELEMENTS (columns),
  .figures = figures, .n_figures = G_N_ELEMENTS (figures),
  .device_info = device_info, .n_device_info = G_N_ELEMENTS (device_info),
};

/* --- helpers ---------------------------------------------------------------------- */

/* The text a reader sees: the markup must parse. */
static char *
visible_text (const char *markup)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_assert_nonnull (markup);
  if (!pango_parse_markup (markup, -1, 0, NULL, &text, NULL, &error))
    g_error ("the help is not valid markup (%s):\n%s", error->message, markup);
  return text;
}

/* Every parameter's label and help, every choice's, as translated. */
static void
assert_has_controls (const char             *text,
                     const KsExperimentDesc *desc)
{
  for (guint i = 0; i < desc->n_params; i++)
    {
      const KsParamSpec *spec = &desc->params[i];

      ks_test_assert_has (text, _(spec->label));
      if (spec->help)
        ks_test_assert_has (text, _(spec->help));
      for (guint c = 0; spec->choices && spec->choices[c].value; c++)
        {
          ks_test_assert_has (text, _(spec->choices[c].label));
          if (spec->choices[c].help)
            ks_test_assert_has (text, _(spec->choices[c].help));
        }
    }
}

/* --- tests --------------------------------------------------------------------- */

static void
test_every_mark (void)
{
  g_autofree char *markup = ks_page_help_for_desc (&test_desc);
  g_autofree char *text = visible_text (markup);

  g_test_message ("%s", text);
  ks_test_assert_has (text, "Help test");
  ks_test_assert_has (text, "The paper says that x < y.");
  ks_test_assert_has (text, "Each point waits a < b & c");
  assert_has_controls (text, &test_desc);
  ks_test_assert_has (text, ks_page_help_paper ("000"));
  /* The condition names the other field and its choice's label; the
   * backends and the range are said. */
  ks_test_assert_has (text, "Mode of going");
  ks_test_assert_has (text, "fast mode.");
  /* A help without its full stop gets one before the next sentence, also
   * after a character beyond ASCII. */
  ks_test_assert_has (text, "How big the thing is. ");
  ks_test_assert_has (text, "T₀. ");
  ks_test_assert_has (text, _("OpenCL devices"));
  ks_test_assert_has (text, "Leave out sizes below this");
  /* Each mark, with what it stands for. */
  ks_test_assert_has (text, "Time against size");
  ks_test_assert_has (text, "Time by mode");
  ks_test_assert_has (text, "odd sizes");
  ks_test_assert_has (text, "The size is odd");
  ks_test_assert_has (text, "guessed best size");
  ks_test_assert_has (text, "What the rule of thumb picks");
  ks_test_assert_has (text, "roof");
  {
    /* The unit as the window writes it (ГБ/с in Russian). */
    g_autofree char *rate = g_strdup_printf ("rate of going, %s", ks_unit_label ("GB/s"));

    ks_test_assert_has (text, rate);
  }
  ks_test_assert_has (text, "Wall time of one go");
  if (!ks_test_russian ())
    {
      ks_test_assert_has (text, "Diamonds");
      ks_test_assert_has (text, "A ring marks the lowest point of each curve");
      ks_test_assert_has (text, "dashed vertical line");
      ks_test_assert_has (text, "dashed horizontal line");
      ks_test_assert_has (text, "the thin bar through it spans the lowest to the highest");
      ks_test_assert_has (text, "The vertical axis is logarithmic");
      ks_test_assert_has (text, "doubles at each step");
      ks_test_assert_has (text, "Bars named “paper”");
      ks_test_assert_has (text, "The paper's own numbers are drawn dashed");
      ks_test_assert_has (text, "earlier runs of the page stay beside it dashed");
      ks_test_assert_has (text, "“recorded: …”");
    }
}

/* What a figure without marks leaves out: no word of rings or diamonds. */
static void
test_no_marks_unsaid (void)
{
  KsFigureSpec plain = { .id = "plain", .title = "Plain", .x = "size", .y = "rate" };
  KsExperimentDesc desc = test_desc;
  g_autofree char *markup = NULL;
  g_autofree char *text = NULL;

  desc.figures = &plain;
  desc.n_figures = 1;
  markup = ks_page_help_for_desc (&desc);
  text = visible_text (markup);
  g_assert_null (strstr (text, "Diamonds"));
  g_assert_null (strstr (text, "A ring"));
  g_assert_null (strstr (text, "dashed vertical"));
  g_assert_null (strstr (text, "the thin bar"));
  g_assert_null (strstr (text, "logarithmic"));
}

static void
test_registered (void)
{
  g_autoptr(GPtrArray) all = ks_registry_list ();

  g_assert_cmpuint (all->len, >, 0);
  for (guint i = 0; i < all->len; i++)
    {
      const KsExperimentDesc *desc = all->pdata[i];
      g_autofree char *markup = ks_page_help_for_desc (desc);
      g_autofree char *text = visible_text (markup);

      ks_test_assert_has (text, _(desc->title));
      ks_test_assert_has (text, _(desc->claim));
      assert_has_controls (text, desc);
      /* Every paper of the course has its paragraph. */
      g_assert_nonnull (ks_page_help_paper (desc->paper));
      ks_test_assert_has (text, ks_page_help_paper (desc->paper));
      for (guint f = 0; f < desc->n_figures; f++)
        {
          const KsFigureSpec *fig = &desc->figures[f];

          ks_test_assert_has (text, _(fig->title));
          if (fig->highlight_legend)
            ks_test_assert_has (text, _(fig->highlight_legend));
        }
    }
}

/* The help of device information name of desc: its label and help. */
static const KsColumnSpec *
info_of (const KsExperimentDesc *desc,
         const char             *name)
{
  for (guint i = 0; i < desc->n_device_info; i++)
    if (strcmp (desc->device_info[i].name, name) == 0)
      return &desc->device_info[i];
  g_assert_not_reached ();
}

/* Marks of the real figures, by what they stand for. */
static void
test_real_marks (void)
{
  const KsExperimentDesc *size_desc = ks_registry_lookup ("gauss-size");
  const KsExperimentDesc *wg_desc = ks_registry_lookup ("gauss-wg");
  const KsColumnSpec *prime = &size_desc->columns[ks_experiment_desc_find_column (size_desc, "n_plus_1_prime")];
  const KsColumnSpec *optimum = info_of (wg_desc, wg_desc->figures[0].vline_info);
  g_autofree char *size = ks_page_help_for_desc (size_desc);
  g_autofree char *wg = ks_page_help_for_desc (wg_desc);
  g_autofree char *heat = ks_page_help_for_desc (ks_registry_lookup ("heat"));
  g_autofree char *size_text = visible_text (size);
  g_autofree char *wg_text = visible_text (wg);
  g_autofree char *heat_text = visible_text (heat);

  /* The prime N+1 diamonds say why they are slow. */
  ks_test_assert_has (size_text, _(size_desc->figures[0].highlight_legend));
  ks_test_assert_has (size_text, _(prime->help));
  /* The predicted optimum's line is the paper's rule. */
  ks_test_assert_has (wg_text, _(optimum->label));
  ks_test_assert_has (wg_text, _(optimum->help));
  ks_test_assert_has (wg_text, _(wg_desc->figures[0].min_x_help));
  /* A line labelled by its legend alone keeps the words before the number. */
  ks_test_assert_has (heat_text, ks_test_russian () ? "«triad»" : "“triad”");
}

static const char *const hand_made[] = { "devices", "gauss-solve", "tridiag-solve", "heat-live", "index-map" };

static void
test_hand_made (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (hand_made); i++)
    {
      g_autofree char *markup = ks_page_help_for_page (hand_made[i]);
      g_autofree char *text = visible_text (markup);

      ks_test_assert_has (text, _("Controls"));
      ks_test_assert_has (text, _("What to look for"));
      ks_test_assert_has (text, _("What the page shows"));
      g_assert_cmpuint (strlen (text), >, 600);
    }
  /* Each names its own controls. */
  {
    g_autofree char *solve_markup = ks_page_help_for_page ("gauss-solve");
    g_autofree char *heat_markup = ks_page_help_for_page ("heat-live");
    g_autofree char *solve = visible_text (solve_markup);
    g_autofree char *heat = visible_text (heat_markup);

    ks_test_assert_has (solve, _("Gauss: single solve"));
    if (!ks_test_russian ())
      {
        ks_test_assert_has (solve, "Matrix size n");
        ks_test_assert_has (heat, "Fixed colour scale");
      }
    ks_test_assert_has (solve, ks_page_help_paper ("000"));
    ks_test_assert_has (heat, ks_page_help_paper ("004"));
  }
  g_assert_null (ks_page_help_for_page ("no-such-page"));
  g_assert_null (ks_page_help_paper ("999"));
}

/* The help of every page, in the language LANGUAGE names now. */
static GPtrArray *
every_help (void)
{
  g_autoptr(GPtrArray) all = ks_registry_list ();
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < all->len; i++)
    {
      g_autofree char *markup = ks_page_help_for_desc (all->pdata[i]);
      g_ptr_array_add (texts, visible_text (markup));
    }
  for (guint i = 0; i < G_N_ELEMENTS (hand_made); i++)
    {
      g_autofree char *markup = ks_page_help_for_page (hand_made[i]);
      g_ptr_array_add (texts, visible_text (markup));
    }
  return texts;
}

/* Under LANGUAGE=ru: no line of the English help is left in the Russian
 * one (short lines, such as a choice called "float", may stay alike). */
static void
test_russian (void)
{
  g_autoptr(GPtrArray) ru = NULL;
  g_autoptr(GPtrArray) en = NULL;
  g_autofree char *lang = g_strdup (g_getenv ("LANGUAGE"));

  if (!ks_test_russian ())
    {
      g_test_skip ("run under LANGUAGE=ru (test-page-help-ru)");
      return;
    }
  ru = every_help ();
  /* gettext keeps what it found until the domain is set again. */
  g_setenv ("LANGUAGE", "en", TRUE);
  textdomain (GETTEXT_PACKAGE);
  en = every_help ();
  g_setenv ("LANGUAGE", lang, TRUE);
  textdomain (GETTEXT_PACKAGE);
  g_assert_cmpuint (ru->len, ==, en->len);
  for (guint i = 0; i < en->len; i++)
    {
      g_auto(GStrv) lines = g_strsplit (en->pdata[i], "\n", -1);

      for (guint l = 0; lines[l]; l++)
        if (g_utf8_strlen (lines[l], -1) >= 30 && strstr (ru->pdata[i], lines[l]) != NULL)
          g_error ("left in English under LANGUAGE=ru: “%s”", lines[l]);
    }
  /* The paper's paragraphs, word for word. */
  g_assert_cmpstr (strstr (ru->pdata[0], ks_page_help_paper ("000")), !=, NULL);
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, KS_TEST_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/page-help/every-mark", test_every_mark);
  g_test_add_func ("/page-help/no-marks-unsaid", test_no_marks_unsaid);
  g_test_add_func ("/page-help/registered", test_registered);
  g_test_add_func ("/page-help/real-marks", test_real_marks);
  g_test_add_func ("/page-help/hand-made", test_hand_made);
  g_test_add_func ("/page-help/russian", test_russian);
  return g_test_run ();
}
