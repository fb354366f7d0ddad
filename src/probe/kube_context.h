/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The namespace kubectl would use when -n is omitted, read from the
 * kubeconfig files without a network call (as kubectl does).
 */
#ifndef CI_PROBE_KUBE_CONTEXT_H
#define CI_PROBE_KUBE_CONTEXT_H

/* The namespace of context (NULL: the current-context) in the kubeconfig:
 * the file kubeconfig (--kubeconfig) when given, else each file of
 * $KUBECONFIG (colon-separated; for each field the first file that sets it
 * wins, as kubectl merges them), else $HOME/.kube/config.  "default" when
 * no file names one (kubectl's fallback).  A new string. */
char *kube_context_namespace(const char *kubeconfig, const char *context);

#endif
