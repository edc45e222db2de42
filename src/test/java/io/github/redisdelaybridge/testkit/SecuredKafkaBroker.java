package io.github.redisdelaybridge.testkit;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test class's own Kafka broker with TLS and SASL listeners ({@link SecuredKafka}), its certificates and a client on
 * its plain listener: started before the class's tests, stopped after them. Register it as a static field.
 */
public final class SecuredKafkaBroker implements BeforeAllCallback, AfterAllCallback {

    private final String certificatesName;
    private final String saslPassword;
    private TestCertificates certs;
    private SecuredKafka broker;
    private KafkaTestClient kafka;

    /** @param certificatesName names the generated certificates' directory; @param saslPassword the SASL user's password */
    public SecuredKafkaBroker(String certificatesName, String saslPassword) {
        this.certificatesName = certificatesName;
        this.saslPassword = saslPassword;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        certs = TestCertificates.generate(certificatesName);
        broker = SecuredKafka.start(certs, saslPassword);
        kafka = new KafkaTestClient(broker.plainBootstrap());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (kafka != null) {
            kafka.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    public TestCertificates certs() {
        return certs;
    }

    public SecuredKafka broker() {
        return broker;
    }

    /** A client on the broker's plain listener, to create topics and read what arrived. */
    public KafkaTestClient kafka() {
        return kafka;
    }
}
