/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-param-form.h: the form of an experiment, built from its description.
 *
 * One switch over the parameter's type, as GTK Inspector's property editor
 * does: a spin button with its limits and unit for a number, a combo for a
 * choice, a switch for a boolean, an entry for text, a file chooser button
 * for a file.  A sweepable parameter takes an axis ("5000:40000:5000",
 * "2^10:2^20", "driver,split"), checked as it is typed with the same
 * parser the engine and the CLI use, the reason shown beside the field.  A
 * parameter whose condition or the device's backend rules it out is greyed
 * out with the reason as its tooltip; advanced ones fold into an expander.
 *
 * Values go in and out as the CLI's text, so the saved settings, the
 * sessions and the engine all speak one language. */
#pragma once

#include <gtk/gtk.h>

#include "ks-engine.h"

G_BEGIN_DECLS

#define KS_TYPE_PARAM_FORM (ks_param_form_get_type ())
G_DECLARE_FINAL_TYPE (KsParamForm, ks_param_form, KS, PARAM_FORM, GtkBox)

GtkWidget  *ks_param_form_new         (const KsExperimentDesc *desc);
const KsExperimentDesc *ks_param_form_get_desc (KsParamForm *self);
/* The device the form is for: which parameters apply there. */
void        ks_param_form_set_backend (KsParamForm  *self,
                                       KsBackend     backend);
/* The field's text as the CLI would take it; "" where a field is empty
 * (left to the device's default). */
char       *ks_param_form_get_text    (KsParamForm  *self,
                                       const char   *name);
/* FALSE for an unknown name, or a value a combo does not offer. */
gboolean    ks_param_form_set_text    (KsParamForm  *self,
                                       const char   *name,
                                       const char   *text);
/* Every parameter's text (name -> text, both owned). */
GHashTable *ks_param_form_get_values  (KsParamForm  *self);
/* Does the parameter apply under the form's other values on the form's
 * backend?  *why (may be NULL) gets the reason when it does not. */
gboolean    ks_param_form_applies     (KsParamForm  *self,
                                       const char   *name,
                                       char        **why);
/* The first field whose text does not parse, with the reason; TRUE when
 * every field is fine. */
gboolean    ks_param_form_validate    (KsParamForm  *self,
                                       GError      **error);
/* Sets every parameter that applies and is not empty on engine. */
gboolean    ks_param_form_apply       (KsParamForm  *self,
                                       KsEngine     *engine,
                                       GError      **error);
/* The field's widget (for tests and the mnemonic check); NULL if none. */
GtkWidget  *ks_param_form_get_field   (KsParamForm  *self,
                                       const char   *name);
/* A swept number's range and presets button (ks-axis-button.h); NULL for
 * other fields. */
GtkWidget  *ks_param_form_get_axis_button (KsParamForm *self,
                                           const char  *name);
/* The text shown beside a field that does not parse ("" when it does). */
const char *ks_param_form_get_field_error (KsParamForm *self,
                                           const char  *name);

/* What an empty field of a parameter with a device default will take on
 * the form's device (text, e.g. "1,32:1024:32") and why: shown as the
 * field's placeholder and in its tooltip.  NULL text: back to "picked for
 * the device". */
void        ks_param_form_set_default_hint (KsParamForm *self,
                                            const char  *name,
                                            const char  *text,
                                            const char  *why);

/* "OpenCL devices and CUDA devices": the kinds of device a KS_BACKENDS_*
 * mask names, for the reasons the form and the page give. */
char       *ks_param_form_describe_backends (guint mask);

/* text (a message or help the command line shares) with each option of
 * desc ("--wg-list", and "--reps", "--warmup") named by its field's label
 * instead (“Work-group sizes”): the window shows no command-line syntax.
 * desc may be NULL (only the repetitions). */
char       *ks_param_form_reword (const KsExperimentDesc *desc,
                                  const char             *text);
/* The same, on error's message in place; error may be NULL. */
void        ks_param_form_reword_error (const KsExperimentDesc *desc,
                                        GError                 *error);

/* Gives each field's label a mnemonic (Alt+letter) whose key taken (a set
 * of lower-case keyvals: the window's and the page's other mnemonics)
 * does not hold, adding each one it picks to taken; a label with no free
 * letter goes without.  Called again, it picks again. */
void        ks_param_form_assign_mnemonics (KsParamForm *self,
                                            GHashTable  *taken);

/* Signal "changed": a value changed (typed, chosen, loaded). */

G_END_DECLS
