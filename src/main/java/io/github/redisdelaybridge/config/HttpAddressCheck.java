package io.github.redisdelaybridge.config;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Refuses a start whose HTTP server could not listen. Camel's HTTP server logs a failed listen and starts the
 * bridge anyway: it would consume and deliver with no health, metrics or admin API, and its probes would answer
 * whatever else holds the port (another bridge's health, say). So before anything connects, the server's address
 * and, when health and metrics have a port of their own, the management address are bound once and released.
 */
public final class HttpAddressCheck {

    private HttpAddressCheck() {
    }

    /**
     * Throws {@link HttpAddressInUseException} when an address the HTTP server will listen on is taken.
     *
     * @param lookup resolves camel.* keys (null when not set)
     */
    public static void requireFree(Function<String, String> lookup) {
        if (!"true".equalsIgnoreCase(valueOr(lookup, "camel.server.enabled", "false"))) {
            return;
        }
        List<String> problems = new ArrayList<>();
        String host = valueOr(lookup, "camel.server.host", "0.0.0.0");
        int port = Integer.parseInt(valueOr(lookup, "camel.server.port", "8080"));
        check(host, port, "camel.server.host, camel.server.port", problems);
        if ("true".equalsIgnoreCase(valueOr(lookup, "camel.management.enabled", "false"))) {
            int managementPort = Integer.parseInt(valueOr(lookup, "camel.management.port", Integer.toString(port)));
            if (managementPort != port) {
                check(valueOr(lookup, "camel.management.host", "0.0.0.0"), managementPort,
                        "camel.management.host, camel.management.port", problems);
            }
        }
        if (!problems.isEmpty()) {
            throw new HttpAddressInUseException(problems);
        }
    }

    private static void check(String host, int port, String keys, List<String> problems) {
        if (port <= 0) {
            return;
        }
        // reuse-address as Vert.x binds: a port whose last connections linger in TIME_WAIT after a stop is free
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(host), port));
        } catch (IOException e) {
            String reason = e instanceof java.net.BindException && String.valueOf(e.getMessage()).contains("in use")
                    ? "the address is already in use by another process" : String.valueOf(e.getMessage());
            problems.add("cannot listen on " + host + ":" + port + " (" + keys + "): " + reason);
        }
    }

    private static String valueOr(Function<String, String> lookup, String key, String fallback) {
        String value = lookup.apply(key);
        return value == null || value.isBlank() ? fallback : value.strip();
    }
}
