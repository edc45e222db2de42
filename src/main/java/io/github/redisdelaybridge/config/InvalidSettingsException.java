package io.github.redisdelaybridge.config;

import java.util.List;

/**
 * The configuration cannot work: the start stops, and {@code BridgeMain} prints each problem as one line
 * and exits with {@link #EXIT_CODE}, without a stack trace.
 */
public final class InvalidSettingsException extends IllegalArgumentException {

    /** The exit code of a start stopped by bad configuration (1 is what an uncaught exception gives). */
    public static final int EXIT_CODE = 2;

    private final List<String> problems;

    public InvalidSettingsException(List<String> problems) {
        super(String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public InvalidSettingsException(String problem) {
        this(List.of(problem));
    }

    /** One line each. */
    public List<String> problems() {
        return problems;
    }

    /** The first InvalidSettingsException in {@code thrown}'s cause chain, or null. */
    public static InvalidSettingsException in(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof InvalidSettingsException invalid) {
                return invalid;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }
}
