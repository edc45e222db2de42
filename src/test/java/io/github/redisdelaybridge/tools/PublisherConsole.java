package io.github.redisdelaybridge.tools;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Runs {@link DelayedMessagePublisher} as {@code bin/publish} would, keeping what it printed for the test to read. */
final class PublisherConsole {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    /** Its exit code; {@code environment} stands in for the process's environment variables. */
    int run(Map<String, String> environment, String... args) {
        return DelayedMessagePublisher.run(args, environment, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    /** Forgets what earlier runs printed. */
    void clear() {
        out.reset();
        err.reset();
    }
}
