/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-gui-paths.h: where the app finds what it installs (settings schema,
 * translations, recorded reference runs, sample inputs), and the build
 * tree's copies when it runs uninstalled, straight out of `ninja` or the
 * tests. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The app's settings, or NULL (with a message) when no compiled schema can
 * be found; the app then simply does not remember anything. */
GSettings  *ks_gui_settings_new      (void);
/* The folder with translations (.mo), installed or in the build tree. */
const char *ks_gui_locale_dir        (void);
/* The folder of recorded reference runs (JSON), or NULL. Free with g_free. */
char       *ks_gui_reference_dir     (void);
/* A sample input shipped in data/samples/ ("tridiag-A.mtx"), installed or
 * in the source tree, or NULL where neither has it. Free with g_free. */
char       *ks_gui_sample_path       (const char *name);

G_END_DECLS
