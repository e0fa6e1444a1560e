package dev.weir.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real fault for the PostgreSQL tests that leaves the shared server alone: a TCP forwarder on a port
 * of its own, in front of the test database, that a test can {@link #cut()} (the port closes and every
 * open connection is reset: a database that is down), {@link #restore()} (the same port forwards again:
 * the database is back) or {@link #blackhole()} (connections stay open, new ones are accepted, but no
 * byte passes either way: a database that hangs). Plain {@code java.net} sockets, one daemon thread per
 * direction of each connection. Thread-safe: its methods may be called from any thread.
 */
public final class TcpForwarder implements AutoCloseable
{
    private final InetSocketAddress target;
    private final int port;
    private final List<Socket> sockets = new ArrayList<>();
    private ServerSocket server;
    private volatile boolean blackholed;
    private final AtomicLong heldReads = new AtomicLong();

    private TcpForwarder(final InetSocketAddress target, final int port)
    {
        this.target = target;
        this.port = port;
    }

    /**
     * @param targetHost the server's host.
     * @param targetPort the server's port.
     * @return a forwarder, forwarding, on a free port of the loopback address.
     * @throws IOException if it cannot listen.
     */
    public static TcpForwarder to(final String targetHost, final int targetPort) throws IOException
    {
        // listen at once on the port the system gives (not a probe closed and bound again: another test running
        // beside this one could take the port in between)
        final ServerSocket listening = new ServerSocket();
        listening.setReuseAddress(true);
        listening.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        final TcpForwarder forwarder = new TcpForwarder(new InetSocketAddress(targetHost, targetPort), listening.getLocalPort());
        forwarder.listen(listening);
        return forwarder;
    }

    /**
     * @return a forwarder in front of {@link TestDatabase#URL}'s server.
     * @throws IOException if it cannot listen.
     */
    public static TcpForwarder toTestDatabase() throws IOException
    {
        final java.net.URI uri = java.net.URI.create(TestDatabase.URL.substring("jdbc:".length()));
        return to(uri.getHost(), uri.getPort() < 0 ? 5432 : uri.getPort());
    }

    /**
     * @return {@link TestDatabase#URL} with its host and port replaced by this forwarder's.
     */
    public String url()
    {
        final java.net.URI uri = java.net.URI.create(TestDatabase.URL.substring("jdbc:".length()));
        final String hostPort = uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
        return TestDatabase.URL.replaceFirst(java.util.regex.Pattern.quote(hostPort), "127.0.0.1:" + port);
    }

    /**
     * @return the port it listens on (while not cut).
     */
    public int port()
    {
        return port;
    }

    /**
     * The database is down: stop listening (connections are refused) and reset every open connection.
     *
     * @throws IOException if the listening socket cannot be closed.
     */
    public synchronized void cut() throws IOException
    {
        blackholed = false;
        if (server != null)
        {
            server.close();
            server = null;
        }
        for (final Socket socket : sockets)
        {
            try
            {
                socket.setSoLinger(true, 0); // a reset, as a server that went away
                socket.close();
            }
            catch (final IOException ignored)
            {
                // closed already
            }
        }
        sockets.clear();
    }

    /**
     * The database hangs: connections are accepted and kept open, but nothing passes until {@link #cut()}.
     */
    public synchronized void blackhole()
    {
        blackholed = true;
    }

    /**
     * The database is back: listen on the same port again, and forward.
     *
     * @throws IOException if the port cannot be bound.
     */
    public synchronized void restore() throws IOException
    {
        blackholed = false;
        if (server == null)
        {
            final ServerSocket socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
            listen(socket);
        }
    }

    /**
     * @return how many reads, of either direction, {@link #blackhole()} has held back so far: more than before
     *         once a client sent something into the silent network and waits for it.
     */
    public long heldReads()
    {
        return heldReads.get();
    }

    private synchronized void listen(final ServerSocket socket)
    {
        server = socket;
        final Thread acceptor = new Thread(() -> accept(socket), "forwarder-accept-" + port);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void accept(final ServerSocket listening)
    {
        while (true)
        {
            final Socket client;
            try
            {
                client = listening.accept();
            }
            catch (final IOException ex)
            {
                return; // cut
            }
            try
            {
                final Socket upstream = new Socket();
                upstream.connect(target, 5_000);
                synchronized (this)
                {
                    if (listening.isClosed())
                    {
                        client.close();
                        upstream.close();
                        return;
                    }
                    sockets.add(client);
                    sockets.add(upstream);
                }
                pump(client, upstream);
                pump(upstream, client);
            }
            catch (final IOException ex)
            {
                closeQuietly(client);
            }
        }
    }

    private void pump(final Socket from, final Socket to) throws IOException
    {
        final InputStream in = from.getInputStream();
        final OutputStream out = to.getOutputStream();
        final Thread thread = new Thread(() ->
        {
            final byte[] buffer = new byte[16_384];
            try
            {
                while (true)
                {
                    final int read = in.read(buffer);
                    if (read < 0)
                    {
                        break;
                    }
                    if (blackholed)
                    {
                        heldReads.incrementAndGet();
                    }
                    while (blackholed)
                    {
                        Thread.sleep(20); // hold the bytes: the other side waits, as on a silent network
                    }
                    out.write(buffer, 0, read);
                    out.flush();
                }
            }
            catch (final IOException | InterruptedException ignored)
            {
                // cut, or the other side closed
            }
            closeQuietly(from);
            closeQuietly(to);
        }, "forwarder-pump-" + port);
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(final Socket socket)
    {
        try
        {
            socket.close();
        }
        catch (final IOException ignored)
        {
            // closed already
        }
    }

    @Override
    public void close() throws IOException
    {
        cut();
    }

    @Override
    public synchronized String toString()
    {
        return "forwarder 127.0.0.1:" + port + " -> " + target + (server == null ? " (cut)" : blackholed ? " (blackholed)" : "");
    }
}
