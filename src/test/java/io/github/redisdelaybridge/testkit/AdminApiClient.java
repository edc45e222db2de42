package io.github.redisdelaybridge.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Talks to a bridge's admin HTTP API the way curl would: JSON in, JSON out, an optional bearer token. */
public final class AdminApiClient {

    /** A response: its status, its JSON body (null when empty or not JSON), and its raw text. */
    public record Response(int status, JsonNode json, String text, HttpResponse<String> raw) {

        public String error() {
            return json == null || json.get("error") == null ? null : json.get("error").asText();
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUri;
    private final String token;

    /** @param baseUri e.g. {@code http://127.0.0.1:8080}; {@code token} null for none */
    public AdminApiClient(String baseUri, String token) {
        this.baseUri = baseUri;
        this.token = token;
    }

    public AdminApiClient withToken(String otherToken) {
        return new AdminApiClient(baseUri, otherToken);
    }

    public Response get(String path) {
        return send("GET", path, null);
    }

    public Response delete(String path) {
        return send("DELETE", path, null);
    }

    public Response put(String path, String json) {
        return send("PUT", path, json);
    }

    public Response post(String path, String json) {
        return send("POST", path, json);
    }

    public Response send(String method, String path, String json) {
        return send(method, path, json, "application/json");
    }

    /** With another Content-Type, e.g. curl's default for {@code -d}, application/x-www-form-urlencoded. */
    public Response send(String method, String path, String json, String contentType) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUri + path)).timeout(Duration.ofSeconds(30))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", contentType);
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            String body = response.body();
            boolean isJson = response.headers().firstValue("Content-Type").map(type -> type.startsWith("application/json")).orElse(false);
            return new Response(response.statusCode(), isJson && !body.isEmpty() ? JSON.readTree(body) : null, body, response);
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A path segment or query value, percent-encoded. */
    public static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
