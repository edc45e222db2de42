package io.github.redisdelaybridge.testkit;

import kafka.testkit.KafkaClusterTestKit;
import kafka.testkit.TestKitNodes;

/**
 * A single-node KRaft broker in this JVM with three client listeners: PLAINTEXT (for the test's own clients),
 * SASL_PLAINTEXT with the PLAIN mechanism (one user, {@value #SASL_USER}), and SSL with a server certificate of
 * {@link TestCertificates}. The bridge under test is pointed at one of the secured ones.
 */
public final class SecuredKafka implements AutoCloseable {

    public static final String SASL_USER = "bridge";

    private final KafkaClusterTestKit kit;
    private final int saslPort;
    private final int tlsPort;

    private SecuredKafka(KafkaClusterTestKit kit, int saslPort, int tlsPort) {
        this.kit = kit;
        this.saslPort = saslPort;
        this.tlsPort = tlsPort;
    }

    public static SecuredKafka start(TestCertificates certs, String saslPassword) {
        int saslPort = FreePorts.next();
        int tlsPort = FreePorts.next();
        try {
            KafkaClusterTestKit kit = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                    .setCombined(true)
                    .setNumBrokerNodes(1)
                    .setNumControllerNodes(1)
                    .build())
                    .setConfigProp("listeners", "EXTERNAL://127.0.0.1:0,SASL://127.0.0.1:" + saslPort + ",TLS://127.0.0.1:" + tlsPort
                            + ",CONTROLLER://127.0.0.1:0")
                    .setConfigProp("listener.security.protocol.map", "EXTERNAL:PLAINTEXT,SASL:SASL_PLAINTEXT,TLS:SSL,CONTROLLER:PLAINTEXT")
                    .setConfigProp("listener.name.sasl.sasl.enabled.mechanisms", "PLAIN")
                    .setConfigProp("listener.name.sasl.plain.sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required"
                            + " user_" + SASL_USER + "=\"" + saslPassword + "\";")
                    .setConfigProp("listener.name.tls.ssl.keystore.location", certs.serverKeystore().toString())
                    .setConfigProp("listener.name.tls.ssl.keystore.password", certs.password())
                    .setConfigProp("listener.name.tls.ssl.key.password", certs.password())
                    .setConfigProp("listener.name.tls.ssl.keystore.type", "PKCS12")
                    .setConfigProp("offsets.topic.replication.factor", "1")
                    .setConfigProp("offsets.topic.num.partitions", "2")
                    .setConfigProp("transaction.state.log.replication.factor", "1")
                    .setConfigProp("transaction.state.log.min.isr", "1")
                    .setConfigProp("group.initial.rebalance.delay.ms", "0")
                    .setConfigProp("auto.create.topics.enable", "false")
                    .setConfigProp("num.partitions", "1")
                    .build();
            kit.format();
            kit.startup();
            kit.waitForReadyBrokers();
            return new SecuredKafka(kit, saslPort, tlsPort);
        } catch (Exception e) {
            throw new IllegalStateException("could not start the secured Kafka broker", e);
        }
    }

    /** The PLAINTEXT listener, for the test's producer and consumers. */
    public String plainBootstrap() {
        return kit.bootstrapServers();
    }

    public String saslBootstrap() {
        return "127.0.0.1:" + saslPort;
    }

    public String tlsBootstrap() {
        return "127.0.0.1:" + tlsPort;
    }

    /** The JAAS line a client logs in with. */
    public static String clientJaas(String password) {
        return "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + SASL_USER + "\" password=\"" + password + "\";";
    }

    @Override
    public void close() {
        try {
            kit.close();
        } catch (Exception e) {
            throw new IllegalStateException("could not stop the secured Kafka broker", e);
        }
    }
}
