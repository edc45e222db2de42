package io.github.redisdelaybridge.store.connection;

import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.SslVerifyMode;
import java.nio.file.Path;
import java.util.Locale;

/**
 * How the bridge proves itself to Redis and checks Redis in turn: an ACL user and password (they replace
 * whatever the URI carries), and for {@code rediss://} URIs the certificates trusted, the client certificate
 * shown, and how strictly the server's certificate is checked.
 *
 * @param username           ACL user; empty: the URI's, else {@code default}
 * @param password           its password; empty: the URI's, if any
 * @param truststore         CA certificates to trust: a PEM file ({@code .pem}, {@code .crt}, {@code .cer}) or a
 *                           PKCS12/JKS store; null: the JVM's default trust
 * @param truststorePassword password of a PKCS12/JKS truststore
 * @param keystore           client certificate and key, PKCS12 or JKS (for {@code tls-auth-clients yes}); null: none
 * @param keystorePassword   its password
 * @param verifyPeer         full: CA and host name; ca: CA only; none: nothing (testing only)
 */
public record RedisSecurity(String username, String password, Path truststore, String truststorePassword, Path keystore,
                            String keystorePassword, VerifyPeer verifyPeer) {

    /** How the server's certificate is checked. */
    public enum VerifyPeer {
        FULL(SslVerifyMode.FULL), CA(SslVerifyMode.CA), NONE(SslVerifyMode.NONE);

        private final SslVerifyMode mode;

        VerifyPeer(SslVerifyMode mode) {
            this.mode = mode;
        }

        public static VerifyPeer parse(String text) {
            try {
                return valueOf(text.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("must be full, ca or none, got '" + text + "'");
            }
        }
    }

    public RedisSecurity {
        username = username == null ? "" : username;
        password = password == null ? "" : password;
        truststorePassword = truststorePassword == null ? "" : truststorePassword;
        keystorePassword = keystorePassword == null ? "" : keystorePassword;
        verifyPeer = verifyPeer == null ? VerifyPeer.FULL : verifyPeer;
    }

    /** Nothing beyond what the URI says. */
    public static RedisSecurity none() {
        return new RedisSecurity("", "", null, "", null, "", VerifyPeer.FULL);
    }

    /** Puts the credentials and the verification mode on one node's URI. */
    void applyTo(RedisURI uri) {
        if (!password.isEmpty()) {
            if (username.isEmpty()) {
                uri.setPassword(password.toCharArray());
            } else {
                uri.setUsername(username);
                uri.setPassword(password.toCharArray());
            }
        } else if (!username.isEmpty()) {
            uri.setUsername(username);
        }
        if (uri.isSsl()) {
            uri.setVerifyPeer(verifyPeer.mode);
        }
    }

    /** Lettuce's TLS options for these stores; the JVM defaults when none is named. */
    SslOptions sslOptions() {
        SslOptions.Builder builder = SslOptions.builder().jdkSslProvider();
        if (truststore != null) {
            if (isPem(truststore)) {
                builder.trustManager(truststore.toFile());
            } else {
                builder.truststore(truststore.toFile(), truststorePassword);
            }
        }
        if (keystore != null) {
            builder.keystore(keystore.toFile(), keystorePassword.toCharArray());
        }
        return builder.build();
    }

    static boolean isPem(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".pem") || name.endsWith(".crt") || name.endsWith(".cer");
    }

    /** Never the passwords. */
    @Override
    public String toString() {
        return "RedisSecurity[user=" + (username.isEmpty() ? "(from URI)" : username) + ", password " + (password.isEmpty() ? "not set" : "set")
                + ", truststore=" + truststore + ", keystore=" + keystore + ", verify-peer=" + verifyPeer.name().toLowerCase(Locale.ROOT) + "]";
    }
}
