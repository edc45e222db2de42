package io.github.redisdelaybridge.metrics;

import java.util.Locale;

/** Where a cancel or reschedule came from: the {@code via} label of their counters. */
public enum Via {
    /** A control message on an inbound topic or queue. */
    MESSAGE,
    /** The admin HTTP API. */
    HTTP;

    String code() {
        return name().toLowerCase(Locale.ROOT);
    }
}
