package io.github.redisdelaybridge.message;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** How a failure reads in a log line or a dead letter's detail, and the failure behind a future's wrapper. */
public final class Failures {

    private Failures() {
    }

    /** The innermost cause as {@code SimpleClassName: message}: what went wrong, without the layers that passed it on. */
    public static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    /** The failure a CompletionException or ExecutionException carries (futures wrap what they were completed with). */
    public static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
