/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope: the desktop application. */
#include <glib/gi18n.h>
#include <locale.h>

#include "ks-application.h"
#include "ks-gui-paths.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(KsApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, ks_gui_locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = ks_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
