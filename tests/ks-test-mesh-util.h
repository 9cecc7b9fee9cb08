/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-test-mesh-util.h: what the mesh tests (test-mesh, test-msh-corpus,
 * test-mesh-hostile) check of a mesh the readers refuse. */
#pragma once

#include <string.h>

#include <glib.h>

#include "ks-mesh.h"

/* m refused with code, its message saying words (the message is logged). */
static inline void
ks_test_expect_mesh_refused (const KsMesh *m, const GError *error, KsMeshError code, const char *words)
{
  g_assert_null (m);
  g_assert_error (error, KS_MESH_ERROR, (gint) code);
  g_test_message ("%s", error->message);
  if (strstr (error->message, words) == NULL)
    g_error ("\"%s\" does not say \"%s\"", error->message, words);
}
