package io.github.redisdelaybridge.tools;

import java.util.ArrayList;
import java.util.List;

/** A failure as bin/publish reports it: one line, each cause's message once. */
final class FailureText {

    private FailureText() {
    }

    /** The messages of {@code e} and its causes, in one line, each once. */
    static String causes(Throwable e) {
        List<String> messages = new ArrayList<>();
        for (Throwable t = e; t != null && messages.size() < 5; t = t.getCause() == t ? null : t.getCause()) {
            String text = oneLine(t);
            if (t.getMessage() != null && messages.stream().noneMatch(m -> m.contains(text))) {
                messages.add(text);
            }
        }
        return messages.isEmpty() ? oneLine(e) : String.join(": ", messages);
    }

    static String oneLine(Throwable e) {
        Throwable shown = e;
        while (shown.getMessage() == null && shown.getCause() != null) {
            shown = shown.getCause();
        }
        String text = shown.getMessage() == null ? shown.getClass().getSimpleName() : shown.getMessage();
        return text.replaceAll("\\s+", " ").strip();
    }
}
