package com.example.payments;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A database outage that leaves the shared server alone: a TCP proxy on a loopback port of its own, in front of
 * the database, that the test {@link #cut()}s (the port stops listening and every open connection is reset) and
 * {@link #restore()}s (the same port forwards again). One daemon thread accepts, two pump each connection.
 * Thread-safe.
 */
final class TcpProxy implements AutoCloseable
{
    private final InetSocketAddress target;
    private final int port;
    private final List<Socket> sockets = new ArrayList<>();
    private ServerSocket server;

    private TcpProxy(final InetSocketAddress target, final int port)
    {
        this.target = target;
        this.port = port;
    }

    /**
     * @param host the server's host.
     * @param port the server's port.
     * @return a proxy to it, forwarding, on a free loopback port.
     * @throws IOException if it cannot listen.
     */
    static TcpProxy to(final String host, final int port) throws IOException
    {
        final int free;
        try (ServerSocket probe = new ServerSocket(0, 50, InetAddress.getLoopbackAddress()))
        {
            free = probe.getLocalPort();
        }
        final TcpProxy proxy = new TcpProxy(new InetSocketAddress(host, port), free);
        proxy.restore();
        return proxy;
    }

    /** @return the port it listens on while not cut. */
    int port()
    {
        return port;
    }

    /**
     * The database is down: stop listening, and reset every open connection.
     *
     * @throws IOException if the listening socket cannot be closed.
     */
    synchronized void cut() throws IOException
    {
        if (server != null)
        {
            server.close();
            server = null;
        }
        for (final Socket socket : sockets)
        {
            try
            {
                socket.setSoLinger(true, 0); // a reset, as from a server that went away
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
     * The database is back: listen on the same port again.
     *
     * @throws IOException if the port cannot be bound.
     */
    synchronized void restore() throws IOException
    {
        if (server == null)
        {
            final ServerSocket listening = new ServerSocket();
            listening.setReuseAddress(true);
            listening.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
            server = listening;
            daemon(() -> accept(listening), "proxy-accept-" + port);
        }
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
            catch (final IOException cut)
            {
                return;
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
        daemon(() ->
        {
            final byte[] buffer = new byte[16_384];
            try
            {
                for (int read = in.read(buffer); read >= 0; read = in.read(buffer))
                {
                    out.write(buffer, 0, read);
                    out.flush();
                }
            }
            catch (final IOException ignored)
            {
                // cut, or the other side closed
            }
            closeQuietly(from);
            closeQuietly(to);
        }, "proxy-pump-" + port);
    }

    private static void daemon(final Runnable task, final String name)
    {
        final Thread thread = new Thread(task, name);
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
}
