/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-gui-pages-check.c: what test-gui-pages looks for on a page: a
 * widget cut off or squeezed, a cut-short label that cannot be read
 * whole, an English word in the Russian window. */
#define G_LOG_DOMAIN "test-gui-pages"

#include "test-gui-pages.h"
#include "test-gui-util.h"

#include <string.h>

/* Pixels a widget may overhang: rounding in nested allocations. */
#define SLACK 1

typedef struct {
  GtkWidget   *top;
  GString     *problems;
  GdkRectangle clip;       /* what the widget's holders let show, in top's coordinates */
  gboolean     scrolls_v;  /* clip's top and bottom are a scrolled window's */
} Walk;

/* "GtkLabel “Unknowns” in GtkGrid in KsParamForm": enough to find it. */
static char *
describe (GtkWidget *w)
{
  GString *s = g_string_new (G_OBJECT_TYPE_NAME (w));
  const char *id = GTK_IS_BUILDABLE (w) ? gtk_buildable_get_name (GTK_BUILDABLE (w)) : NULL;
  guint up = 0;

  if (id != NULL && !g_str_has_prefix (id, "Gtk"))
    g_string_append_printf (s, " #%s", id);
  if (GTK_IS_LABEL (w))
    g_string_append_printf (s, " “%s”", gtk_label_get_text (GTK_LABEL (w)));
  else if (GTK_IS_BUTTON (w) && gtk_button_get_label (GTK_BUTTON (w)) != NULL)
    g_string_append_printf (s, " “%s”", gtk_button_get_label (GTK_BUTTON (w)));
  for (GtkWidget *p = gtk_widget_get_parent (w); p != NULL && up < 4; p = gtk_widget_get_parent (p), up++)
    g_string_append_printf (s, " in %s", G_OBJECT_TYPE_NAME (p));
  return g_string_free (s, FALSE);
}

static gboolean
has_tooltip_near (GtkWidget *w)
{
  for (guint up = 0; w != NULL && up < 4; w = gtk_widget_get_parent (w), up++)
    if (gtk_widget_get_has_tooltip (w))
      return TRUE;
  return FALSE;
}

static void
check_size (GtkWidget           *w,
            const GtkAllocation *a,
            Walk                *walk)
{
  /* A widget's sizes count its margins; its allocation does not. */
  int width = a->width + gtk_widget_get_margin_start (w) + gtk_widget_get_margin_end (w);
  int height = a->height + gtk_widget_get_margin_top (w) + gtk_widget_get_margin_bottom (w);
  int min_w, min_h;
  g_autofree char *what = NULL;

  gtk_widget_get_preferred_width (w, &min_w, NULL);
  gtk_widget_get_preferred_height_for_width (w, MAX (width, min_w), &min_h, NULL);
  if (width + SLACK < min_w || height + SLACK < min_h)
    {
      what = describe (w);
      g_string_append_printf (walk->problems, "%s is given %d x %d of its least %d x %d\n",
                              what, width, height, min_w, min_h);
    }
  else if (GTK_IS_LABEL (w) && pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (w)))
           && !has_tooltip_near (w))
    {
      what = describe (w);
      g_string_append_printf (walk->problems, "%s is cut short with no tooltip\n", what);
    }
}

static void walk_cb (GtkWidget *w, gpointer data);

static void
walk_children (GtkWidget          *w,
               const GdkRectangle *box,
               Walk               *parent)
{
  Walk inner = *parent;

  /* A tree view's rows and a text view's lines are no widgets; its headers
   * scroll sideways with the columns. */
  if (!GTK_IS_CONTAINER (w) || GTK_IS_TREE_VIEW (w) || GTK_IS_TEXT_VIEW (w))
    return;
  /* A widget with its own window (a viewport, a revealer, an event box)
   * shows its children only inside it; a scrolled window lets them run
   * past its top and bottom, which scrolling brings into view. */
  if (GTK_IS_SCROLLED_WINDOW (w) || (gtk_widget_get_has_window (w) && !gtk_widget_is_toplevel (w)))
    gdk_rectangle_intersect (&parent->clip, box, &inner.clip);
  if (GTK_IS_SCROLLED_WINDOW (w))
    {
      GtkPolicyType h, v;
      gtk_scrolled_window_get_policy (GTK_SCROLLED_WINDOW (w), &h, &v);
      inner.scrolls_v = v != GTK_POLICY_NEVER;
    }
  gtk_container_forall (GTK_CONTAINER (w), walk_cb, &inner);
}

static void
walk_cb (GtkWidget *w,
         gpointer   data)
{
  Walk *walk = data;
  GtkAllocation a;
  GdkRectangle box;
  int x, y;
  gboolean side, ends;

  if (!gtk_widget_get_mapped (w) || !gtk_widget_translate_coordinates (w, walk->top, 0, 0, &x, &y))
    return;
  gtk_widget_get_allocation (w, &a);
  box = (GdkRectangle) { x, y, a.width, a.height };
  /* Rows a scrolled form has scrolled out of view are not cut off. */
  if (walk->scrolls_v && (y >= walk->clip.y + walk->clip.height || y + a.height <= walk->clip.y))
    return;
  /* (A scrolled window's viewport is as large as the view, not its child.) */
  if (a.width > 1 && a.height > 1
      && !(GTK_IS_SCROLLABLE (w) && GTK_IS_SCROLLED_WINDOW (gtk_widget_get_parent (w))))
    {
      side = x + SLACK < walk->clip.x || x + a.width > walk->clip.x + walk->clip.width + SLACK;
      ends = !walk->scrolls_v
             && (y + SLACK < walk->clip.y || y + a.height > walk->clip.y + walk->clip.height + SLACK);
      if (side || ends)
        {
          g_autofree char *what = describe (w);
          g_string_append_printf (walk->problems, "%s at %d,%d %d x %d is cut off (it may show %d,%d %d x %d)\n",
                                  what, x, y, a.width, a.height,
                                  walk->clip.x, walk->clip.y, walk->clip.width, walk->clip.height);
        }
      check_size (w, &a, walk);
    }
  walk_children (w, &box, walk);
}

void
ks_test_pages_check_layout (GtkWidget          *top,
                            const GdkRectangle *area,
                            GString            *problems)
{
  Walk walk = { top, problems, *area, FALSE };

  gtk_container_forall (GTK_CONTAINER (top), walk_cb, &walk);
}

typedef struct {
  GString *problems;
  guint    depth;
} Wide;

/* The shown widgets that need 150 pixels or more, as a tree, each with its
 * least width: where a window's least width comes from is a sum along
 * one branch (a paned's two sides, a box's row), not one wide widget. */
static void
wide_cb (GtkWidget *w,
         gpointer   data)
{
  Wide *wide = data;
  int min;

  if (!gtk_widget_get_mapped (w))
    return;
  gtk_widget_get_preferred_width (w, &min, NULL);
  if (min < 150)
    return;
  {
    g_autofree char *what = describe (w);
    char *in = strstr (what, " in ");

    if (in != NULL)
      *in = '\0';
    g_string_append_printf (wide->problems, "%*s%s needs %d pixels of width\n",
                            (int) (2 * wide->depth), "", what, min);
  }
  if (GTK_IS_CONTAINER (w))
    {
      wide->depth++;
      gtk_container_forall (GTK_CONTAINER (w), wide_cb, wide);
      wide->depth--;
    }
}

void
ks_test_pages_log_wide (GtkWidget *top,
                        GString   *problems)
{
  Wide wide = { problems, 0 };

  gtk_container_forall (GTK_CONTAINER (top), wide_cb, &wide);
}

/* What a screen of screen_w x screen_h (a 1024 x 768 projector) offers, the header bar included (the window's
 * size leaves it out, and the margin around it that a window manager
 * drops when it maximizes); out: where the window's visible part is, in
 * its own coordinates, at its size then (larger only if it cannot
 * shrink so far). */
void
ks_test_pages_fit_screen (int           screen_w,
                          int           screen_h,
                          GdkRectangle *area)
{
  GtkWidget *bar = gtk_window_get_titlebar (GTK_WINDOW (window));
  GtkWidget *content = gtk_bin_get_child (GTK_BIN (window));
  int x, y, bar_y, bar_x;

  g_assert_nonnull (bar);
  gtk_window_resize (GTK_WINDOW (window), screen_w, screen_h - gtk_widget_get_allocated_height (bar));
  spin (500);
  g_assert_true (gtk_widget_translate_coordinates (content, GTK_WIDGET (window), 0, 0, &x, &y));
  g_assert_true (gtk_widget_translate_coordinates (bar, GTK_WIDGET (window), 0, 0, &bar_x, &bar_y));
  area->x = MIN (x, bar_x);
  area->y = bar_y;
  area->width = MAX (gtk_widget_get_allocated_width (content), gtk_widget_get_allocated_width (bar));
  area->height = y + gtk_widget_get_allocated_height (content) - bar_y;
}

/* --- Russian --------------------------------------------------------------------- */

/* Words the Russian window never shows: units Russian writes as мс, мкс,
 * нс, Б; the words of legends, axes, buttons and forms.  Proper names
 * (OpenCL, CUDA, PoCL, NVIDIA, Thomas, PARACR, CG), OpenCL's and C's own
 * words (float, short4, native_sin) and SI symbols are not English. */
static const char *const english[] = {
  "ms", "us", "ns", "driver", "cells", "cell", "boundary", "time", "size", "sizes", "run", "runs",
  "export", "stop", "devices", "device", "step", "steps", "bytes", "systems", "system", "speed",
  "speedup", "per", "vs", "the", "of", "and", "with", "method", "recorded", "measured", "paper",
  "group", "groups", "width", "height", "rows", "row", "length", "elements", "iterations",
  "iteration", "error", "best", "predicted", "points", "values", "measure", "add", "remove",
  "save", "open", "play", "pause", "reset", "heat", "tridiagonal", "solve", "matrix",
  "unknowns", "repetitions", "warm", "launch", "here", "earlier", "plot", "function", "functions",
  "bandwidth", "memory", "precision", "policy", "fixed", "explicit", "padded", "shrinking",
  "insulated",
};

/* Letters, digits and '_': CL_KERNEL_WORK_GROUP_SIZE is a name. */
static gboolean
word_char (const char *p)
{
  return *p == '_' || g_unichar_isalnum (g_utf8_get_char (p));
}

/* The English words of text, each once, in order: "ms, driver"; NULL if none. */
char *
ks_test_pages_english_words (const char *text)
{
  g_autoptr(GString) found = g_string_new (NULL);
  const char *p = text;

  while (*p != '\0')
    {
      const char *start;
      g_autofree char *word = NULL;

      while (*p != '\0' && !word_char (p))
        p = g_utf8_next_char (p);
      start = p;
      while (*p != '\0' && word_char (p))
        p = g_utf8_next_char (p);
      /* An option (--iterations) is syntax, not a word to translate. */
      if (p == start || (start - text >= 2 && start[-1] == '-' && start[-2] == '-'))
        continue;
      word = g_strndup (start, p - start);
      for (guint i = 0; i < G_N_ELEMENTS (english); i++)
        if (g_ascii_strcasecmp (word, english[i]) == 0 && !strstr (found->str, word))
          g_string_append_printf (found, "%s%s", found->len ? ", " : "", word);
    }
  return found->len > 0 ? g_strdup (found->str) : NULL;
}

static void
collect_texts_cb (GtkWidget *w,
                  gpointer   data)
{
  GPtrArray *texts = data;

  if (!gtk_widget_get_mapped (w))
    return;
  if (GTK_IS_LABEL (w))
    g_ptr_array_add (texts, g_strdup (gtk_label_get_text (GTK_LABEL (w))));
  /* What an entry holds is the user's to type (a choice's value, as the
   * files write it); its placeholder is the window's. */
  else if (GTK_IS_ENTRY (w) && gtk_entry_get_placeholder_text (GTK_ENTRY (w)) != NULL)
    g_ptr_array_add (texts, g_strdup (gtk_entry_get_placeholder_text (GTK_ENTRY (w))));
  if (GTK_IS_TREE_VIEW (w))
    {
      GtkTreeModel *model = gtk_tree_view_get_model (GTK_TREE_VIEW (w));
      g_autoptr(GList) columns = gtk_tree_view_get_columns (GTK_TREE_VIEW (w));
      GtkTreeIter iter;

      for (GList *l = columns; l != NULL; l = l->next)
        if (gtk_tree_view_column_get_visible (l->data) && gtk_tree_view_column_get_title (l->data))
          g_ptr_array_add (texts, g_strdup (gtk_tree_view_column_get_title (l->data)));
      for (gboolean ok = model && gtk_tree_model_get_iter_first (model, &iter); ok;
           ok = gtk_tree_model_iter_next (model, &iter))
        for (int c = 0; c < gtk_tree_model_get_n_columns (model); c++)
          if (gtk_tree_model_get_column_type (model, c) == G_TYPE_STRING)
            {
              char *s = NULL;
              gtk_tree_model_get (model, &iter, c, &s, -1);
              if (s != NULL)
                g_ptr_array_add (texts, s);
            }
    }
  if (GTK_IS_CONTAINER (w))
    gtk_container_forall (GTK_CONTAINER (w), collect_texts_cb, texts);
}

/* text without any of names (a device's name is no English to translate). */
static char *
without_names (const char         *text,
               const char * const *names)
{
  GString *s = g_string_new (text);

  /* (g_string_replace is GLib 2.68; meson.build asks for 2.66.) */
  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    for (char *at; *names[i] != '\0' && (at = strstr (s->str, names[i])) != NULL;)
      {
        gssize pos = at - s->str;
        g_string_erase (s, pos, strlen (names[i]));
        g_string_insert_c (s, pos, ' ');
      }
  return g_string_free (s, FALSE);
}

void
ks_test_pages_check_russian (GtkWidget          *top,
                             KsPlotView         *plot,
                             const char * const *names,
                             GString            *problems)
{
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  gtk_container_forall (GTK_CONTAINER (top), collect_texts_cb, texts);
  if (plot != NULL && gtk_widget_get_mapped (GTK_WIDGET (plot)) && ks_plot_view_get_plot (plot) != NULL)
    {
      g_auto(GStrv) drawn = ks_plot_get_drawn_texts (ks_plot_view_get_plot (plot),
                                                     gtk_widget_get_allocated_width (GTK_WIDGET (plot)),
                                                     gtk_widget_get_allocated_height (GTK_WIDGET (plot)));
      for (guint i = 0; drawn[i] != NULL; i++)
        g_ptr_array_add (texts, g_strdup (drawn[i]));
    }
  /* Each word once, with the first text it is in: a table's column of
   * "12.3 ms" is one finding. */
  for (guint i = 0; i < texts->len; i++)
    {
      g_autofree char *text = without_names (texts->pdata[i], names);
      g_autofree char *words = ks_test_pages_english_words (text);
      g_autofree char *shown = NULL;

      if (words == NULL || !g_hash_table_add (seen, g_strdup (words)))
        continue;
      shown = g_strndup (texts->pdata[i], 120);
      g_strdelimit (shown, "\n", '/');
      g_string_append_printf (problems, "English “%s” in “%s”\n", words, shown);
    }
}
