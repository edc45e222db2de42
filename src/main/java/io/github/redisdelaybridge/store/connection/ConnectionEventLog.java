package io.github.redisdelaybridge.store.connection;

import io.lettuce.core.event.EventBus;
import io.lettuce.core.event.connection.ConnectionActivatedEvent;
import io.lettuce.core.event.connection.ConnectionEvent;
import io.lettuce.core.event.connection.DisconnectedEvent;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;

/**
 * One line when a Redis connection is lost and one when it is back, per server address, in place of Lettuce's
 * line per reconnect attempt (its watchdog logger is turned down in logback.xml): an outage of an hour logs two
 * lines here, however often Lettuce tries.
 */
final class ConnectionEventLog {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionEventLog.class);

    private final String description;
    private final Set<String> sentinels;
    private final Map<String, Long> lostSince = new ConcurrentHashMap<>();
    private final List<Runnable> onConnected = new CopyOnWriteArrayList<>();
    private Disposable subscription;

    /**
     * @param sentinels host:port of the sentinels, if any: Lettuce opens and closes a short connection to one for every
     *                  master lookup, which is no news
     */
    ConnectionEventLog(String description, Set<String> sentinels) {
        this.description = description;
        this.sentinels = sentinels;
    }

    void follow(EventBus events) {
        subscription = events.get().subscribe(event -> {
            if (event instanceof ConnectionEvent connectionEvent && isSentinel(connectionEvent.remoteAddress())) {
                return;
            }
            if (event instanceof DisconnectedEvent disconnected) {
                String address = address(disconnected.remoteAddress());
                if (lostSince.putIfAbsent(address, System.currentTimeMillis()) == null) {
                    LOG.warn("lost the connection to Redis {} ({}); reconnecting", address, description);
                }
            } else if (event instanceof ConnectionActivatedEvent activated) {
                onConnected.forEach(Runnable::run);
                String address = address(activated.remoteAddress());
                Long since = lostSince.remove(address);
                if (since != null) {
                    LOG.info("connection to Redis {} re-established after {} ms", address, System.currentTimeMillis() - since);
                } else if (!lostSince.isEmpty()) {
                    // after a failover the master has a new address: the old one will not come back
                    LOG.info("connected to Redis {} in place of {}", address, lostSince.keySet());
                    lostSince.clear();
                }
            }
        });
    }

    /** Runs {@code listener} (on Lettuce's event thread: it must not block) whenever a connection to a Redis server opens. */
    void onConnected(Runnable listener) {
        onConnected.add(listener);
    }

    /** Before the bridge closes its connections on purpose: that is no loss worth a line. */
    void stop() {
        if (subscription != null) {
            subscription.dispose();
        }
    }

    private boolean isSentinel(SocketAddress address) {
        if (sentinels.isEmpty() || !(address instanceof InetSocketAddress inet)) {
            return false;
        }
        return sentinels.contains(inet.getHostString() + ":" + inet.getPort())
                || (inet.getAddress() != null && sentinels.contains(inet.getAddress().getHostAddress() + ":" + inet.getPort()));
    }

    private static String address(SocketAddress address) {
        return String.valueOf(address).replaceFirst("^[^/]*/", "");
    }
}
