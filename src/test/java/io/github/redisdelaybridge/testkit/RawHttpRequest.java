package io.github.redisdelaybridge.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 request written byte for byte on a plain socket, with exactly the headers given (Host included), as a
 * browser on a foreign page, or one whose DNS was rebound, would send it: java.net.http.HttpClient neither lets a test
 * set Host nor sends a request without adding headers of its own.
 */
public final class RawHttpRequest {

    /** The status line's code, the response headers (names in lower case) and the body as text. */
    public record Response(int status, Map<String, String> headers, String body) {
    }

    private final String method;
    private final String path;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private String body;

    private RawHttpRequest(String method, String path) {
        this.method = method;
        this.path = path;
    }

    /** @param host the Host header; null to send none */
    public static RawHttpRequest of(String method, String path, String host) {
        RawHttpRequest request = new RawHttpRequest(method, path);
        if (host != null) {
            request.headers.put("Host", host);
        }
        return request;
    }

    public RawHttpRequest header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    /** A body, sent with its Content-Length; the Content-Type is whatever {@link #header} set, or none. */
    public RawHttpRequest body(String text) {
        this.body = text;
        return this;
    }

    /** Connects to 127.0.0.1:{@code port}, sends the request, reads the whole response (the server closes after it). */
    public Response sendTo(int port) {
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n");
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        if (body != null) {
            head.append("Content-Length: ").append(content.length).append("\r\n");
        }
        head.append("Connection: close\r\n\r\n");
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(content);
            out.flush();
            return parse(socket.getInputStream().readAllBytes());
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + path + " failed", e);
        }
    }

    private static Response parse(byte[] raw) throws IOException {
        String text = new String(raw, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new IOException("no complete response head in " + raw.length + " bytes: " + text);
        }
        String[] lines = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).strip());
        }
        byte[] rest = java.util.Arrays.copyOfRange(raw, end + 4, raw.length);
        byte[] body = "chunked".equalsIgnoreCase(headers.get("transfer-encoding")) ? dechunk(rest) : rest;
        return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    private static byte[] dechunk(byte[] chunked) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        InputStream in = new java.io.ByteArrayInputStream(chunked);
        while (true) {
            StringBuilder sizeLine = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new IOException("truncated chunked body");
                }
                sizeLine.append((char) c);
            }
            int size = Integer.parseInt(sizeLine.toString().strip().split(";")[0], 16);
            if (size == 0) {
                return body.toByteArray();
            }
            body.write(in.readNBytes(size));
            in.readNBytes(2);
        }
    }
}
