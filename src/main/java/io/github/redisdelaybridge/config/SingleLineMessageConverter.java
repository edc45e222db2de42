package io.github.redisdelaybridge.config;

import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * {@code %singleLineMsg} in the text log pattern: the message with its control characters escaped ({@code \n}, {@code \r},
 * {@code \t}, others as {@code \}{@code u001b}), so that a message id, target or request path a producer or client chose can
 * never start a line of its own and pass for a line of the bridge (an audit line, say). Line breaks beyond ASCII (NEL,
 * U+2028, U+2029) count as control characters too.
 */
public final class SingleLineMessageConverter extends MessageConverter {

    /** Its name in the patterns of logback.xml and {@link LogFormat}. */
    public static final String CONVERSION_WORD = "singleLineMsg";

    @Override
    public String convert(ILoggingEvent event) {
        return escaped(super.convert(event));
    }

    /** {@code text} with every control character escaped; the same string when it holds none. */
    public static String escaped(String text) {
        if (text == null) {
            return null;
        }
        StringBuilder escaped = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!isControl(c)) {
                if (escaped != null) {
                    escaped.append(c);
                }
                continue;
            }
            if (escaped == null) {
                escaped = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            switch (c) {
                case '\n' -> escaped.append("\\n");
                case '\r' -> escaped.append("\\r");
                case '\t' -> escaped.append("\\t");
                default -> escaped.append(String.format("\\u%04x", (int) c));
            }
        }
        return escaped == null ? text : escaped.toString();
    }

    private static boolean isControl(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';
    }
}
