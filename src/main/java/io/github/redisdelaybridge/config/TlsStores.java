package io.github.redisdelaybridge.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Locale;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The files of a TLS client: CA certificates to trust and, optionally, a client certificate with its key. Builds the
 * {@link SSLContext} for clients that take one (RabbitMQ). A truststore is a PEM file ({@code .pem}, {@code .crt},
 * {@code .cer}: one or more CA certificates) or a PKCS12 / JKS store ({@code .jks}: JKS, else PKCS12); a keystore is
 * PKCS12 or JKS. Errors name the file and the setting, never a password.
 *
 * @param settingPrefix e.g. {@code bridge.rabbitmq.tls.}, for error messages
 * @param truststore    null: the JVM's default CAs
 * @param keystore      null: no client certificate
 */
public record TlsStores(String settingPrefix, Path truststore, String truststorePassword, Path keystore, String keystorePassword) {

    public TlsStores {
        truststorePassword = truststorePassword == null ? "" : truststorePassword;
        keystorePassword = keystorePassword == null ? "" : keystorePassword;
    }

    /** A TLS 1.2/1.3 client context trusting the truststore's CAs and presenting the keystore's certificate. */
    public SSLContext clientContext() {
        try {
            TrustManagerFactory trust = null;
            if (truststore != null) {
                trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                trust.init(isPem(truststore) ? pemTrustStore(truststore) : load(truststore, truststorePassword, "truststore"));
            }
            KeyManagerFactory keys = null;
            if (keystore != null) {
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(load(keystore, keystorePassword, "keystore"), keystorePassword.toCharArray());
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys == null ? null : keys.getKeyManagers(), trust == null ? null : trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("settings " + settingPrefix + "*: cannot build a TLS context: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " " + e.getMessage()));
        }
    }

    private KeyStore load(Path file, String password, String what) throws GeneralSecurityException {
        KeyStore store = KeyStore.getInstance(file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".jks") ? "JKS" : "PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, password.isEmpty() ? null : password.toCharArray());
        } catch (IOException e) {
            // a wrong password shows as an IOException too; its message holds no secret
            throw new IllegalArgumentException("setting " + settingPrefix + what + ": cannot read " + file + ": " + e.getMessage());
        }
        return store;
    }

    private KeyStore pemTrustStore(Path file) throws GeneralSecurityException {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        try (InputStream in = Files.newInputStream(file)) {
            store.load(null, null);
            int i = 0;
            for (Certificate certificate : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                store.setCertificateEntry("ca-" + i++, certificate);
            }
            if (i == 0) {
                throw new IllegalArgumentException("setting " + settingPrefix + "truststore: no certificate in " + file);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("setting " + settingPrefix + "truststore: cannot read " + file + ": " + e.getMessage());
        }
        return store;
    }

    static boolean isPem(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".pem") || name.endsWith(".crt") || name.endsWith(".cer");
    }

    @Override
    public String toString() {
        return "TLS (truststore " + (truststore == null ? "JVM default" : truststore) + ", keystore " + (keystore == null ? "none" : keystore) + ")";
    }
}
