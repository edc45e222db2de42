package io.github.redisdelaybridge.tools;

import static io.github.redisdelaybridge.tools.FailureText.causes;
import static io.github.redisdelaybridge.tools.FailureText.oneLine;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.github.redisdelaybridge.config.InvalidSettingsException;
import io.github.redisdelaybridge.config.RabbitMqConnections;
import io.github.redisdelaybridge.config.RabbitMqSettings;
import io.github.redisdelaybridge.message.HeaderNames;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * bin/publish's RabbitMQ side: sends the message to the inbound queue through the default exchange ({@code x-delay} as an
 * AMQP integer, as with the delayed-message plugin) with publisher confirms, and waits for the broker's confirm, failing in
 * one line within the timeout: a refused login, a failed TLS handshake, a nack, a return and a blocked connection each
 * say so.
 */
final class RabbitMqSender {

    private RabbitMqSender() {
    }

    /** Where the broker took the message. */
    static String send(PublishOptions options, BrokerSettings settings) throws NotSent {
        RabbitMqSettings rabbitMq = settings.rabbitMq();
        ConnectionFactory factory;
        try {
            factory = RabbitMqConnections.factory(rabbitMq);
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingsException(settings.source() + ": " + e.getMessage()); // a TLS store that cannot be read
        }
        String where = rabbitMq.addresses().stream().map(a -> a.host() + ":" + a.port()).collect(Collectors.joining(","));
        int timeout = (int) Math.min(Integer.MAX_VALUE, options.timeoutMs);
        factory.setConnectionTimeout(timeout);
        factory.setHandshakeTimeout(timeout);
        factory.setAutomaticRecoveryEnabled(false);
        factory.setChannelRpcTimeout(timeout);
        Map<String, Object> table = new LinkedHashMap<>();
        options.headers.forEach(h -> table.put(h.getKey(),
                h.getKey().equals(HeaderNames.DELAY) && h.getValue().matches("[0-9]{1,9}") ? Integer.valueOf(h.getValue()) : h.getValue()));
        Connection connection;
        try {
            connection = factory.newConnection(RabbitMqConnections.addresses(rabbitMq), "bin-publish");
        } catch (Exception e) {
            throw new NotSent(notConnected(where, rabbitMq, e));
        }
        // A broker under a resource alarm blocks the connection: publishing, confirms and even the close handshake
        // then wait forever. Fail in one line instead, and abort the connection rather than closing it politely.
        AtomicReference<String> blocked = new AtomicReference<>();
        connection.addBlockedListener(blocked::set, () -> blocked.set(null));
        where = connection.getAddress().getHostAddress() + ":" + connection.getPort();
        boolean sent = false;
        try {
            Channel channel = connection.createChannel();
            AtomicReference<String> returned = new AtomicReference<>();
            channel.addReturnListener(r -> returned.set(r.getReplyText() + " (" + r.getReplyCode() + ")"));
            channel.confirmSelect();
            channel.basicPublish("", settings.queue(), true, new AMQP.BasicProperties.Builder()
                    .headers(table).deliveryMode(2).contentType("text/plain").build(), options.body.getBytes(StandardCharsets.UTF_8));
            if (!channel.waitForConfirms(options.timeoutMs)) {
                throw new NotSent("RabbitMQ at " + where + " refused the message (nack)");
            }
            if (returned.get() != null) {
                throw new NotSent("RabbitMQ at " + where + " returned the message: " + returned.get() + ": no queue '" + settings.queue() + "'?");
            }
            sent = true;
            return "sent to RabbitMQ queue " + settings.queue();
        } catch (NotSent e) {
            throw e;
        } catch (TimeoutException e) {
            String reason = blocked.get();
            throw new NotSent("RabbitMQ at " + where + " did not confirm within " + options.timeoutMs + " ms"
                    + (reason == null ? "" : " (it blocks publishers: " + reason + ")"));
        } catch (IOException | RuntimeException e) {
            throw new NotSent("RabbitMQ at " + where + ": " + oneLine(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NotSent("interrupted");
        } finally {
            if (sent) {
                closeWithin(connection, timeout);
            } else {
                connection.abort(timeout);
            }
        }
    }

    /** Nobody listening is not the same failure as a TLS handshake that fails, or a broker refusing the login or the virtual host. */
    private static String notConnected(String where, RabbitMqSettings rabbitMq, Exception e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.ConnectException || t instanceof java.net.SocketTimeoutException
                    || t instanceof java.net.UnknownHostException || t instanceof java.net.NoRouteToHostException) {
                return "no RabbitMQ broker answers at " + where + " (" + oneLine(e) + ")";
            }
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof javax.net.ssl.SSLException) {
                return "RabbitMQ at " + where + ": the TLS handshake failed (" + causes(e) + ")";
            }
        }
        return "RabbitMQ at " + where + " did not let user '" + rabbitMq.username() + "' into virtual host '" + rabbitMq.virtualHost()
                + "'" + (rabbitMq.tls() == null ? "" : " over TLS") + ": " + causes(e);
    }

    /** Closes politely, but never waits longer than the timeout for the broker's answer. */
    private static void closeWithin(Connection connection, int timeoutMs) {
        try {
            connection.close(timeoutMs);
        } catch (IOException | RuntimeException e) {
            connection.abort(timeoutMs);
        }
    }
}
