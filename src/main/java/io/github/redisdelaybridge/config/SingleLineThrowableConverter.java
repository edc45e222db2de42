package io.github.redisdelaybridge.config;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;
import java.util.Arrays;

/**
 * {@code %singleLineEx} in the text log pattern: the stack trace as usual, one frame a line, with the message of each
 * exception (and of its causes and suppressed ones) escaped like {@link SingleLineMessageConverter}'s: an exception's
 * message may quote a message id or a broker's answer, and must not start a line of its own either.
 */
public final class SingleLineThrowableConverter extends ThrowableProxyConverter {

    /** Its name in the patterns of logback.xml and {@link LogFormat}. */
    public static final String CONVERSION_WORD = "singleLineEx";

    @Override
    protected String throwableProxyToString(IThrowableProxy thrown) {
        return super.throwableProxyToString(new Escaped(thrown));
    }

    /** The proxy of a throwable, its message escaped, its causes and suppressed ones wrapped alike. */
    private record Escaped(IThrowableProxy proxy) implements IThrowableProxy {

        @Override
        public String getMessage() {
            return SingleLineMessageConverter.escaped(proxy.getMessage());
        }

        @Override
        public String getClassName() {
            return proxy.getClassName();
        }

        @Override
        public StackTraceElementProxy[] getStackTraceElementProxyArray() {
            return proxy.getStackTraceElementProxyArray();
        }

        @Override
        public int getCommonFrames() {
            return proxy.getCommonFrames();
        }

        @Override
        public IThrowableProxy getCause() {
            return proxy.getCause() == null ? null : new Escaped(proxy.getCause());
        }

        @Override
        public IThrowableProxy[] getSuppressed() {
            IThrowableProxy[] suppressed = proxy.getSuppressed();
            return suppressed == null ? null : Arrays.stream(suppressed).map(Escaped::new).toArray(IThrowableProxy[]::new);
        }

        @Override
        public boolean isCyclic() {
            return proxy.isCyclic();
        }
    }
}
