package io.github.redisdelaybridge.config;

import java.util.List;

/**
 * The HTTP server (health, metrics, admin API) cannot listen where it is configured to: the start stops, and
 * {@code BridgeMain} prints each problem as one line and exits with {@link #EXIT_CODE}, without a stack trace.
 */
public final class HttpAddressInUseException extends IllegalStateException {

    /** Not the configuration's fault as such (2): something else holds the address. */
    public static final int EXIT_CODE = 1;

    private final List<String> problems;

    public HttpAddressInUseException(List<String> problems) {
        super(String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    /** One line each. */
    public List<String> problems() {
        return problems;
    }

    /** The first HttpAddressInUseException in {@code thrown}'s cause chain, or null. */
    public static HttpAddressInUseException in(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof HttpAddressInUseException inUse) {
                return inUse;
            }
        }
        return null;
    }
}
