/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-gui-paths.h"
#include "ks-reference.h"

#define SCHEMA_ID "org.kernelscope.Kernelscope"

GSettings *
ks_gui_settings_new (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GError) error = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, SCHEMA_ID, TRUE);
  if (schema == NULL)
    {
      /* Not installed: the schema compiled in the build tree. */
      g_autoptr(GSettingsSchemaSource) build =
        g_settings_schema_source_new_from_directory (KS_BUILD_SCHEMA_DIR, source, FALSE, &error);

      if (build != NULL)
        schema = g_settings_schema_source_lookup (build, SCHEMA_ID, FALSE);
    }
  if (schema == NULL)
    {
      g_message ("Settings schema %s not found; settings will not be remembered", SCHEMA_ID);
      return NULL;
    }
  return g_settings_new_full (schema, NULL, NULL);
}

const char *
ks_gui_locale_dir (void)
{
  /* Prefer the installed translations; fall back to the build tree's so
   * LANGUAGE=ru works on a fresh checkout too. */
  if (g_file_test (KS_LOCALEDIR "/ru/LC_MESSAGES/" GETTEXT_PACKAGE ".mo", G_FILE_TEST_EXISTS))
    return KS_LOCALEDIR;
  if (g_file_test (KS_BUILD_LOCALEDIR, G_FILE_TEST_IS_DIR))
    return KS_BUILD_LOCALEDIR;
  return KS_LOCALEDIR;
}

char *
ks_gui_reference_dir (void)
{
  /* One place decides, for the CLI's --overlay and the app alike. */
  return g_strdup (ks_reference_dir ());
}

char *
ks_gui_sample_path (const char *name)
{
  g_autofree char *installed = NULL;
  g_autofree char *source = NULL;

  g_return_val_if_fail (name != NULL, NULL);
  /* Installed first, as the translations; then the source tree's, so an
   * uninstalled build and the tests offer the same samples. */
  installed = g_build_filename (KS_SAMPLE_DIR, name, NULL);
  if (g_file_test (installed, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&installed);
  source = g_build_filename (KS_SOURCE_SAMPLE_DIR, name, NULL);
  if (g_file_test (source, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&source);
  return NULL;
}
