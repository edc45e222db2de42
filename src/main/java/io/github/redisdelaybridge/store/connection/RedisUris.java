package io.github.redisdelaybridge.store.connection;

import io.lettuce.core.RedisURI;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The URIs of {@code bridge.redis.uri}, which may carry a password: split into the URIs it lists, shown without their
 * user information, and parsed with errors that never hold the URI.
 */
public final class RedisUris {

    /** A comma that starts another URI ({@code ,redis://}): other commas belong to a URI (its password, a Sentinel host list). */
    private static final Pattern NEXT_URI = Pattern.compile(",(?=\\s*[A-Za-z][A-Za-z0-9+.-]*://)");

    private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*");

    private static final String SETTING = "bridge.redis.uri";

    private RedisUris() {
    }

    /** One URI (a Sentinel URI names its hosts inside), or the seed nodes of a cluster, each a URI of its own. */
    public static List<String> split(String setting) {
        return Arrays.stream(NEXT_URI.split(setting)).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    /**
     * The URIs without their user information ({@code redis://user:secret@host} -> {@code redis://***@host}). A password
     * may hold any character, {@code @} and {@code /} included, so the user information is everything between {@code //}
     * and the last {@code @} of the URI: a host part holds no {@code @}. An {@code @} in a query or fragment hides more than
     * needed, never less.
     */
    public static String redacted(String setting) {
        return String.join(",", split(setting).stream().map(RedisUris::redactedOne).toList());
    }

    private static String redactedOne(String uri) {
        int scheme = uri.indexOf("://");
        int authority = scheme < 0 ? 0 : scheme + 3;
        int at = uri.lastIndexOf('@');
        return at < authority ? uri : uri.substring(0, authority) + "***@" + uri.substring(at + 1);
    }

    /** Lettuce's form of {@code uri}; throws naming the setting and what is wrong, never the URI (it may hold the password). */
    public static RedisURI parse(String uri) {
        try {
            return RedisURI.create(uri.strip());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("setting " + SETTING + ": cannot parse " + describedPosition(uri) + " (" + reason(e)
                    + "); percent-encode special characters of a password (% as %25, a space as %20), or set it in bridge.redis.password");
        }
    }

    /** Null when every URI of the setting parses, else why not (without the URI). */
    public static String whyUnparseable(String setting) {
        for (String uri : split(setting)) {
            try {
                parse(uri);
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        }
        return null;
    }

    private static String describedPosition(String uri) {
        int end = uri.indexOf("://");
        String scheme = end < 0 ? "" : uri.substring(0, end).strip();
        return SCHEME.matcher(scheme).matches() ? "the " + scheme + ":// URI" : "the URI (no scheme such as redis://)";
    }

    /** The parser's reason alone: its message repeats the input. */
    private static String reason(RuntimeException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof URISyntaxException syntax) {
                return syntax.getReason();
            }
        }
        return "not a Redis URI: redis://, rediss://, redis-sentinel:// or rediss-sentinel://";
    }
}
