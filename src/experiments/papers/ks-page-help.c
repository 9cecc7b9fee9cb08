/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-page-help.c: a generic page's help, generated from its description:
 * the claim, the paper's paragraph (ks-page-help-text.c), the controls and
 * the figures' marks.  Every piece of the description is escaped, so a
 * "<" in a help text cannot break the markup. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-page-help.h"
#include "ks-page-help-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* A heading: a blank line before it unless it starts the text. */
void
ks_page_help_heading (GString    *out,
                      const char *heading)
{
  g_autofree char *escaped = g_markup_escape_text (heading, -1);

  g_string_append_printf (out, "%s<b>%s</b>\n", out->len ? "\n" : "", escaped);
}

/* A paragraph of plain text, escaped. */
void
ks_page_help_paragraph (GString    *out,
                        const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text, -1);

  g_string_append_printf (out, "%s\n", escaped);
}

/* text ended as a sentence: descriptions' help texts often have no full
 * stop, which reads badly once another sentence follows. */
static void
append_sentence (GString    *out,
                 const char *text)
{
  const char *last = text;

  for (const char *p = text; *p; p = g_utf8_next_char (p))
    if (!g_unichar_isspace (g_utf8_get_char (p)))
      last = p;
  g_string_append (out, text);
  if (*text && g_utf8_strchr (".!?:…", -1, g_utf8_get_char (last)) == NULL)
    g_string_append_c (out, '.');
}

/* A paragraph of text and, where more is not NULL, more after it, each
 * ended as a sentence. */
static void
say (GString    *out,
     const char *text,
     const char *more)
{
  g_autoptr(GString) line = g_string_new (NULL);

  append_sentence (line, text);
  if (more != NULL && *more)
    {
      g_string_append_c (line, ' ');
      append_sentence (line, more);
    }
  ks_page_help_paragraph (out, line->str);
}

/* "the host", "OpenCL devices and CUDA devices". */
static char *
backends_text (guint mask)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  const struct { guint bit; const char *name; } kinds[] = {
    { KS_BACKENDS_HOST, N_("the host") },
    { KS_BACKENDS_OPENCL, N_("OpenCL devices") },
    { KS_BACKENDS_CUDA, N_("CUDA devices") },
  };

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (mask & kinds[i].bit)
      g_ptr_array_add (names, (gpointer) _(kinds[i].name));
  g_ptr_array_add (names, NULL);
  return g_strjoinv (_(" and "), (char **) names->pdata);
}

/* A value of parameter name as the form shows it: a choice's label, "on"
 * or "off" for a switch, else the value itself. */
static const char *
value_label (const KsExperimentDesc *desc,
             const char             *name,
             const char             *value)
{
  int p = ks_experiment_desc_find_param (desc, name);
  const KsParamSpec *spec = p >= 0 ? &desc->params[p] : NULL;

  if (spec != NULL && spec->type == KS_PARAM_BOOL)
    return strcmp (value, "true") == 0 ? _("on") : _("off");
  for (guint i = 0; spec != NULL && spec->choices != NULL && spec->choices[i].value != NULL; i++)
    if (strcmp (spec->choices[i].value, value) == 0)
      return _(spec->choices[i].label);
  return value;
}

/* What the form says about where a parameter applies, or "". */
static char *
param_notes (const KsExperimentDesc *desc,
             const KsParamSpec      *spec)
{
  g_autoptr(GString) notes = g_string_new (NULL);

  if (spec->when.param != NULL)
    {
      int c = ks_experiment_desc_find_param (desc, spec->when.param);
      g_autoptr(GPtrArray) values = g_ptr_array_new ();
      g_autofree char *list = NULL;

      for (guint i = 0; spec->when.values[i] != NULL; i++)
        g_ptr_array_add (values, (gpointer) value_label (desc, spec->when.param, spec->when.values[i]));
      g_ptr_array_add (values, NULL);
      list = g_strjoinv (_(" or "), (char **) values->pdata);
      g_string_append_c (notes, ' ');
      g_string_append_printf (notes, _("Applies only when “%s” is %s."),
                              c >= 0 ? _(desc->params[c].label) : spec->when.param, list);
    }
  if (spec->backends != KS_BACKENDS_ALL)
    {
      g_autofree char *where = backends_text (spec->backends);

      g_string_append_c (notes, ' ');
      /* TRANSLATORS: where a parameter means something: "Only on OpenCL devices and CUDA devices." */
      g_string_append_printf (notes, _("Only on %s."), where);
    }
  if (spec->device_default != NULL)
    g_string_append_printf (notes, " %s", _("Left empty, it is picked for the device, and its tooltip says why."));
  if (spec->sweepable && (spec->type == KS_PARAM_INT || spec->type == KS_PARAM_REAL))
    g_string_append_printf (notes, " %s",
                            _("It can take several values in one run: the button beside it gives a range "
                              "(From, To, Step) or a usual sweep, and each value is measured in turn."));
  else if (spec->sweepable)
    g_string_append_printf (notes, " %s",
                            _("It can take several values in one run: its menu offers each value alone or "
                              "all of them together, and each value is measured in turn."));
  if (spec->advanced)
    g_string_append_printf (notes, " %s", _("It is under Advanced."));
  return g_string_free (g_steal_pointer (&notes), FALSE);
}

static void
append_param (GString                *out,
              const KsExperimentDesc *desc,
              const KsParamSpec      *spec)
{
  g_autofree char *notes = param_notes (desc, spec);
  g_autoptr(GString) help = g_string_new (NULL);
  g_autofree char *line = NULL;

  if (spec->help != NULL)
    append_sentence (help, _(spec->help));
  g_string_append (help, notes);
  /* TRANSLATORS: a control in F1's help: "• Work-group size, items: its help. Its notes." */
  line = g_markup_printf_escaped (_("• <b>%s</b>%s%s: %s"), _(spec->label), spec->unit ? ", " : "",
                                  spec->unit ? spec->unit : "", g_strchug (help->str));
  g_string_append_printf (out, "%s\n", line);
  for (guint i = 0; spec->choices != NULL && spec->choices[i].value != NULL; i++)
    {
      const KsChoice *c = &spec->choices[i];
      g_autofree char *choice = g_markup_printf_escaped ("    – <i>%s</i>%s%s\n", _(c->label),
                                                         c->help ? ": " : "", c->help ? _(c->help) : "");

      g_string_append (out, choice);
    }
}

/* The controls every generic page has beside the description's own
 * (ui/ks-experiment-page.ui); markup. */
static void
append_page_controls (GString                *out,
                      const KsExperimentDesc *desc)
{
  const char *min_x_help = NULL;

  for (guint i = 0; i < desc->n_figures && min_x_help == NULL; i++)
    min_x_help = desc->figures[i].min_x_help;
  g_string_append_printf (out, "%s\n", _("• <b>Repetitions</b> and <b>Warm-up</b>: each point is measured "
                                         "this many times, after this many untimed runs; the plot and the "
                                         "table show the median."));
  if (desc->n_figures > 1)
    g_string_append_printf (out, "%s\n", _("• <b>Figure</b>: which of the figures below the plot draws; "
                                           "the run is the same."));
  if (min_x_help != NULL)
    {
      g_autoptr(GString) help = g_string_new (NULL);
      g_autofree char *line = NULL;

      append_sentence (help, _(min_x_help));
      line = g_markup_printf_escaped (_("• <b>Plot from</b>: %s"), help->str);
      g_string_append_printf (out, "%s\n", line);
    }
  g_string_append_printf (out, "%s\n", _("• <b>Also run on</b>: measure on other devices too, one after "
                                         "the other, each as curves of the same figure."));
  g_string_append_printf (out, "%s\n", _("• <b>Runs in the plot</b>: tick or untick a run to show or hide "
                                         "it, or remove it; <b>Add Recorded Run</b> puts a run measured "
                                         "elsewhere beside yours; <b>Clear</b> removes every run."));
  if (desc->backends != KS_BACKENDS_ALL)
    {
      g_autofree char *where = backends_text (desc->backends);
      g_autofree char *line = g_strdup_printf (_("This experiment runs only on %s."), where);

      ks_page_help_paragraph (out, line);
    }
}

/* A reference line's name: the device information's label where the
 * description names it, else its legend without the number ("lambda_b"
 * of "lambda_b %.3g"). */
static char *
line_name (const KsExperimentDesc *desc,
           const char             *info,
           const char             *label)
{
  const char *text = label ? _(label) : info;
  const char *percent = strchr (text, '%');

  for (guint i = 0; i < desc->n_device_info; i++)
    if (strcmp (desc->device_info[i].name, info) == 0)
      return g_strdup (_(desc->device_info[i].label));
  return g_strstrip (g_strdelimit (g_strndup (text, percent ? (gsize) (percent - text) : strlen (text)),
                                   ":", ' '));
}

/* The help of device information info, or NULL. */
static const char *
info_help (const KsExperimentDesc *desc,
           const char             *info)
{
  for (guint i = 0; i < desc->n_device_info; i++)
    if (strcmp (desc->device_info[i].name, info) == 0 && desc->device_info[i].help)
      return _(desc->device_info[i].help);
  return NULL;
}

static void
append_line_mark (GString                *out,
                  const KsExperimentDesc *desc,
                  gboolean                vertical,
                  const char             *info,
                  const char             *label)
{
  g_autofree char *name = NULL;
  g_autofree char *line = NULL;
  const char *help;

  if (info == NULL)
    return;
  name = line_name (desc, info, label);
  help = info_help (desc, info);
  line = vertical ? g_strdup_printf (_("A dashed vertical line marks “%s”, one for each device, its value "
                                       "written beside it."), name)
                  : g_strdup_printf (_("A dashed horizontal line marks “%s”, one for each device, its value "
                                       "written beside it."), name);
  say (out, line, help);
}

/* What every generic page's plot does, whatever its figures. */
static const char plot_words[] =
  N_("Each curve (or each colour of bars) has its own colour, named in the legend; hover over an entry "
     "that is cut short to read all of it. After the eighth, the colours come round again with hollow "
     "markers. The newest run is drawn solid; earlier runs of the page stay beside it dashed, and "
     "recorded runs (measured elsewhere, such as the NVIDIA H200 runs that come with Kernelscope) are "
     "dashed and named “recorded: …”. Hover over a point for its values; drag across the plot to zoom "
     "into a range; double-click it or press 0 to see every point again. The table under the plot lists "
     "every measured point, and each column's header says in its tooltip what the column holds.");

/* A parameter's or column's label without its unit, translated. */
static const char *
plain_label (const KsExperimentDesc *desc,
             const char             *name)
{
  int c = ks_experiment_desc_find_column (desc, name);
  int p = ks_experiment_desc_find_param (desc, name);

  return c >= 0 ? _(desc->columns[c].label) : p >= 0 ? _(desc->params[p].label) : name;
}

static void
append_axes (GString                *out,
             const KsExperimentDesc *desc,
             const KsFigureSpec     *f)
{
  g_autofree char *x = ks_experiment_desc_name_label (desc, f->x);
  g_autofree char *y = ks_experiment_desc_name_label (desc, f->y);
  int yc = ks_experiment_desc_find_column (desc, f->y);
  int sp = f->series_by ? ks_experiment_desc_find_param (desc, f->series_by) : -1;
  g_autofree char *axes = NULL;
  g_autofree char *series = NULL;

  axes = f->categorical_x ? g_strdup_printf (_("Bars of “%s”, grouped by “%s”."), y, x)
                          : g_strdup_printf (_("Up: “%s”; across: “%s”."), y, x);
  say (out, axes, yc >= 0 && desc->columns[yc].help ? _(desc->columns[yc].help) : NULL);
  if (sp >= 0)
    series = f->categorical_x
      ? g_strdup_printf (_("One colour of bars for each value of “%s” and each device."), _(desc->params[sp].label))
      : g_strdup_printf (_("One curve for each value of “%s” and each device."), _(desc->params[sp].label));
  else
    series = g_strdup (f->categorical_x ? _("One colour of bars for each device.")
                                        : _("One curve for each device."));
  ks_page_help_paragraph (out, series);
  if (yc >= 0 && desc->columns[yc].derive == NULL && desc->columns[yc].reduce == KS_REDUCE_MEDIAN_RANGE)
    ks_page_help_paragraph (out, _("Each value is the median of the repetitions; the thin bar through it "
                                   "spans the lowest to the highest."));
}

static void
append_scales (GString            *out,
               const KsFigureSpec *f)
{
  if (f->log_y)
    ks_page_help_paragraph (out, _("The vertical axis is logarithmic: equal steps are equal ratios (1, 10, "
                                   "100), so fast and slow curves fit on one plot."));
  if (f->log2_x)
    ks_page_help_paragraph (out, _("The horizontal axis doubles at each step (powers of two)."));
  else if (f->log_x && !f->categorical_x)
    ks_page_help_paragraph (out, _("The horizontal axis is logarithmic: equal steps are equal ratios."));
}

/* One figure: what is drawn against what, and what each mark means. */
static void
append_figure (GString                *out,
               const KsExperimentDesc *desc,
               const KsFigureSpec     *f)
{
  g_autofree char *head = g_markup_printf_escaped ("\n<i>%s</i>\n", _(f->title));
  int hc = f->highlight ? ks_experiment_desc_find_column (desc, f->highlight) : -1;

  g_string_append (out, head);
  append_axes (out, desc, f);
  if (hc >= 0)
    {
      const char *help = desc->columns[hc].help;
      g_autofree char *line =
        g_strdup_printf (_("Diamonds, each in its curve's colour, mark the points the legend calls “%s”."),
                         _(f->highlight_legend ? f->highlight_legend : desc->columns[hc].label));

      say (out, line, help ? _(help) : NULL);
    }
  if (f->mark_best)
    {
      g_autofree char *line = g_strdup_printf (_("A ring marks the lowest point of each curve, labelled "
                                                 "“best” and its “%s”."), plain_label (desc, f->x));

      ks_page_help_paragraph (out, line);
    }
  append_line_mark (out, desc, TRUE, f->vline_info, f->vline_label);
  append_line_mark (out, desc, FALSE, f->hline_info, f->hline_label);
  append_line_mark (out, desc, FALSE, f->hline2_info, f->hline2_label);
  if (f->y2 != NULL)
    {
      g_autofree char *y2 = ks_experiment_desc_name_label (desc, f->y2);
      g_autofree char *line = g_strdup_printf (_("The right axis shows “%s”: a second curve beside each "
                                                 "curve, its name ending in “· %s”."), y2,
                                               plain_label (desc, f->y2));

      ks_page_help_paragraph (out, line);
    }
  if (f->show_paper)
    ks_page_help_paragraph (out, f->categorical_x
                            ? _("Bars named “paper” hold the paper's own numbers, beside the measured ones.")
                            : _("The paper's own numbers are drawn dashed and named “paper” in the legend; "
                                "a number for no particular x is a horizontal line."));
  append_scales (out, f);
}

char *
ks_page_help_for_desc (const KsExperimentDesc *desc)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *title = NULL;
  g_autofree char *paper = NULL;
  const char *look = NULL;

  g_return_val_if_fail (desc != NULL, NULL);

  title = g_markup_printf_escaped ("<big><b>%s</b></big>\n", _(desc->title));
  g_string_append (out, title);
  if (desc->paper_title != NULL)
    {
      /* TRANSLATORS: under the page's title in F1's help: "Paper 000: Baranov & Vlatskaya (2013): ..." */
      paper = g_strdup_printf (_("Paper %s: %s"), desc->paper, _(desc->paper_title));
      ks_page_help_paragraph (out, paper);
    }
  if (desc->claim != NULL)
    {
      ks_page_help_heading (out, _("What the paper claims"));
      ks_page_help_paragraph (out, _(desc->claim));
    }
  look = ks_page_help_paper (desc->paper);
  if (look != NULL)
    {
      ks_page_help_heading (out, _("What to look for"));
      ks_page_help_paragraph (out, look);
    }
  ks_page_help_heading (out, _("Controls"));
  for (guint i = 0; i < desc->n_params; i++)
    append_param (out, desc, &desc->params[i]);
  append_page_controls (out, desc);
  ks_page_help_heading (out, _("Marks and colours"));
  ks_page_help_paragraph (out, _(plot_words));
  for (guint i = 0; i < desc->n_figures; i++)
    append_figure (out, desc, &desc->figures[i]);
  return g_string_free (g_steal_pointer (&out), FALSE);
}
