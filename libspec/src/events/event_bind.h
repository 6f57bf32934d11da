/* SPDX-License-Identifier: GPL-2.0 */
/* Binding handlers to events: spec_event__bind(), __unbind(), __nr_bindings(). */
#ifndef LIBSPEC_EVENT_BIND_H
#define LIBSPEC_EVENT_BIND_H

#include "events/event_registry.h"

#endif /* LIBSPEC_EVENT_BIND_H */
