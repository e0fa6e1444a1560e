package dev.weir.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.weir.engine.CheckpointPayload;
import dev.weir.engine.Pipeline;
import dev.weir.engine.PipelineAgent;
import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.PipelineLayout;
import dev.weir.engine.emit.DeterminismException;
import dev.weir.engine.expr.ColumnProjection;
import dev.weir.journal.DeliveryPositions;
import dev.weir.journal.EventJournal;
import dev.weir.journal.HistoryBase;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.KeyTupleReader;
import dev.weir.journal.OutputConsumer;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.codec.OutputDecoder;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import org.agrona.collections.LongArrayList;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One owned partition: its journal (a mirror of the partition from its checkpoint on, rebuilt on every
 * assignment), its pipeline (run as an agent on the instance's pipeline thread), and the delivery of its outputs
 * to the output topic inside the instance's transactions.
 * <p>
 * Taking a partition over: the journal is created empty with a history base holding the strings the checkpoint's
 * state refers to, the pipeline recovers from the engine checkpoint's payload in memory
 * ({@link PipelineBuilder#recoverFrom}: the engine relocates it to the journal's start), and the partition is re-read after
 * the checkpoint's Kafka offset. Outputs are numbered from the checkpoint's count on; those the previous owner
 * committed after the checkpoint are regenerated, checked equal to the committed rows, and not sent again.
 * <p>
 * The journal keeps only what this task still reads: the pipeline's retention ({@link PipelineBuilder#retention}, on
 * its own thread) removes every whole roll cycle before both its newest checkpoint and the outputs delivered by the
 * last checkpoint shipped (a delivery record, {@link DeliveryPositions}). The next owner rebuilds from Kafka.
 * <p>
 * With an idle timeout, a quiet partition gets heartbeats in its journal ({@link #heartbeatIfIdle}); each is recorded by
 * the checkpoint the pipeline takes right after it, and no output is sent after a heartbeat until that checkpoint is
 * ready to ship with them.
 * <p>
 * Not thread-safe: the instance's Kafka thread owns it, except {@link #onCheckpoint}, called on the pipeline's
 * checkpoint writer thread, which only publishes the checkpoint's bytes.
 */
final class PartitionTask implements OutputConsumer, AutoCloseable
{
    /** A row the previous owner committed: its value and its offset in the output topic. */
    record CommittedRow(String value, long offset)
    {
    }

    private static final Logger LOG = LoggerFactory.getLogger(PartitionTask.class);
    private static final AtomicLong INCARNATIONS = new AtomicLong();
    private static final long[] NO_TUPLES = new long[0];
    /** The name of the record of this task's delivery of the mirror's outputs ({@link DeliveryPositions}). */
    private static final String DELIVERY_RECORD = "kafka";

    private final TopicPartition source;
    private final String sourceText;
    private final Path directory;
    private final Path pipelineRoot;
    private final EventJournal journal;
    private final Pipeline pipeline;
    private final PipelineAgent agent;
    private final OutputJournal outputs;
    private final OutputRows rows;
    /** The key columns if the key's ids are tuple ids (else null), and the reader of the tuples each checkpoint carries. */
    private final int[] keyColumns;
    private final KeyTupleReader tuples;
    private final RecordDecoder decoder;
    private final Producer<byte[], byte[]> producer;
    private final String outputTopic;
    private final int outputPartitions;
    private final int outputPartition;
    private final String rejectedTopic;
    private final int rejectedPartitions;
    private final int rejectedPartition;
    private final OffsetMap offsets = new OffsetMap();
    /** Whether the decoder adds events to the journal's batch rather than writing each at once. */
    private final boolean batched;
    /** The Kafka offsets of the events in the journal's batch, not written yet, in slot order. */
    private final LongArrayList unwritten = new LongArrayList();
    private final AtomicReference<byte[]> published = new AtomicReference<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final NavigableMap<Long, CommittedRow> committed;
    private final long committedThrough;
    private final int committedAfterCheckpoint;
    private final long restoredOutputs;

    private PartitionCheckpoint last;
    private byte[] ready;
    private CheckpointPayload readyCovers;
    private long nextSequence;
    private long firstSequence;
    private LongArrayList positions = new LongArrayList();
    private LongArrayList knownOffsets = new LongArrayList();
    private final ArrayList<Future<RecordMetadata>> sends = new ArrayList<>();
    private long shippedPosition = OutputJournal.NONE;
    private long shippedSequence;
    private long rejectedThrough;
    private Future<RecordMetadata> lastReject;
    private long lastMirrored = -1;
    private long mirrored;
    private long rejected;
    private long produced;
    private long verified;
    private long shipped;
    private long shippedAtMillis;
    /** The reference tables' rows, or null without tables; and the journal's greatest times, which their checkpoint carries. */
    private final TableHistory tableRows;
    private final MirrorTimes times;
    /** The idle timeout's heartbeats, or null without one. */
    private final IdleHeartbeat idle;
    /** The journal offset of the last heartbeat appended, while no checkpoint that covers it is ready; else -1. */
    private long heartbeat = -1;
    /** True while the ready checkpoint covers a heartbeat: it is shipped before a newer one may replace it. */
    private boolean mustShip;

    /**
     * What a partition is taken over from.
     *
     * @param checkpoint       its newest checkpoint, or null if it has none.
     * @param committed        the rows committed after the checkpoint, by output number.
     * @param rejectedThrough  the highest Kafka offset whose rejection is committed, or -1.
     */
    record Start(PartitionCheckpoint checkpoint, NavigableMap<Long, CommittedRow> committed, long rejectedThrough)
    {
    }

    /**
     * Everything a partition task is built with, the same for every partition of an instance.
     *
     * @param root          the directory the partitions' journals go under ({@code <root>/<topic>-<partition>}).
     * @param schema        the events' columns.
     * @param rollCycle     the journals' roll cycle.
     * @param pipeline      a new pipeline's settings (window, columns, listeners are the task's own).
     * @param decoders      a new record decoder.
     * @param rowsFactory   the output rows.
     * @param producer      the instance's transactional producer.
     * @param outputTopic   the output topic and its partition count.
     * @param outputPartitions the output topic's partition count.
     * @param rejectedTopic the rejected topic.
     * @param rejectedPartitions its partition count.
     * @param idleTimeoutMillis T of the idle timeout, ms, or 0 for no heartbeats.
     * @param outOfOrderness D of the pipeline, ms.
     * @param tables        the reference tables whose rows the records may hold ({@link TableRecords}); empty for none.
     */
    record Context(
        Path root, JournalSchema schema, JournalRollCycle rollCycle, Supplier<PipelineBuilder> pipeline,
        Supplier<RecordDecoder> decoders, OutputRows.Factory rowsFactory, Producer<byte[], byte[]> producer,
        String outputTopic, int outputPartitions, String rejectedTopic, int rejectedPartitions, long idleTimeoutMillis,
        long outOfOrderness, List<TableDefinition> tables)
    {
        /**
         * @param renewed the instance's new transactional producer.
         * @return the same context with it.
         */
        Context with(final Producer<byte[], byte[]> renewed)
        {
            return new Context(root, schema, rollCycle, pipeline, decoders, rowsFactory, renewed, outputTopic, outputPartitions,
                rejectedTopic, rejectedPartitions, idleTimeoutMillis, outOfOrderness, tables);
        }
    }

    PartitionTask(final Context context, final TopicPartition source, final Start start)
    {
        this.source = source;
        this.sourceText = source.topic() + ":" + source.partition();
        // a directory of its own per takeover: what an earlier owner of the partition in this or a killed process left
        // is deleted as far as it can be, and a late file write of a stopped pipeline cannot meet this one's
        final Path partitionRoot = context.root().resolve(source.topic() + "-" + source.partition());
        deleteQuietly(partitionRoot);
        this.directory = partitionRoot.resolve(Long.toString(INCARNATIONS.incrementAndGet()) + "-" + ProcessHandle.current().pid());
        this.producer = context.producer();
        this.outputTopic = context.outputTopic();
        this.outputPartitions = context.outputPartitions();
        this.outputPartition = source.partition() % outputPartitions;
        this.rejectedTopic = context.rejectedTopic();
        this.rejectedPartitions = context.rejectedPartitions();
        this.rejectedPartition = source.partition() % rejectedPartitions;
        final PartitionCheckpoint checkpoint = start.checkpoint();
        this.last = checkpoint != null ? checkpoint
            : new PartitionCheckpoint(source.topic(), source.partition(), -1, 0, 0, -1, 0, outputPartitions, rejectedPartitions,
                new TreeMap<>(), null, new long[0], new byte[0]);
        this.committed = start.committed();
        this.committedAfterCheckpoint = committed.size();
        this.committedThrough = committed.isEmpty() ? last.outputs() : Math.max(last.outputs(), committed.lastKey());
        this.restoredOutputs = last.outputs();
        this.nextSequence = restoredOutputs + 1;
        this.shippedSequence = restoredOutputs;
        this.rejectedThrough = Math.max(start.rejectedThrough(), last.rejectedThrough());

        EventJournal.openOrCreate(directory, context.schema(), context.rollCycle()).close();
        for (final TableDefinition table : context.tables())
        {
            JournalDirectory.openOrCreateForTable(directory, table, context.rollCycle());
        }
        final long maxTime = checkpoint == null ? Long.MIN_VALUE : checkpoint.tables().maxTime();
        if (checkpoint != null && (!checkpoint.dictionaries().isEmpty() || checkpoint.keyColumns() != null || maxTime != Long.MIN_VALUE))
        {
            HistoryBase.seed(JournalDirectory.open(directory), checkpoint.dictionaries(), checkpoint.keyColumns(), checkpoint.tuples(),
                maxTime == Long.MIN_VALUE ? -1 : maxTime);
        }
        this.journal = EventJournal.openOrCreate(directory, context.schema(), context.rollCycle());
        this.tableRows = context.tables().isEmpty() ? null : new TableHistory(context.tables());
        if (tableRows != null && checkpoint != null)
        {
            tableRows.restore(checkpoint.tables(), journal); // before any event: the rows the checkpoint's state had read
        }
        final JournalDirectory journalDirectory = journal.directory();
        this.pipelineRoot = journalDirectory.pipelineRoot();
        // the delivery below reads the outputs from the start: recorded before the retention can start
        DeliveryPositions.register(pipelineRoot, DELIVERY_RECORD, sourceText, DeliveryPositions.EVERYTHING,
            System.currentTimeMillis());
        this.pipeline = context.pipeline().get()
            .journal(directory)
            .recoverFrom(checkpoint == null ? null : CheckpointPayload.of(checkpoint.engine()))
            .retention(Duration.ZERO, null)
            .layout(PipelineLayout.INLINE)
            .checkpointEachHeartbeat(true) // a heartbeat is in this mirror only: its checkpoint records it
            .onCheckpoint((sequence, payload) ->
            {
                final byte[] copy = new byte[payload.remaining()];
                payload.get(copy);
                published.set(copy);
            })
            .onFailure(failure::set)
            .build();
        this.agent = pipeline.asAgent();
        this.times = tableRows == null ? null : new MirrorTimes(journalDirectory, maxTime);
        this.outputs = OutputJournal.open(journalDirectory);
        this.rows = context.rowsFactory().open(journalDirectory);
        final ColumnProjection projection = context.pipeline().get().concludeFor(journalDirectory.schema(), context.tables()).projection();
        this.keyColumns = projection.keysByTuple() ? projection.keyColumns() : null;
        this.tuples = keyColumns == null ? null : KeyTupleReader.open(journalDirectory, keyColumns);
        this.decoder = context.decoders().get();
        this.batched = decoder.batches();
        this.idle = context.idleTimeoutMillis() > 0
            ? new IdleHeartbeat(context.idleTimeoutMillis(), context.outOfOrderness(), System.nanoTime())
            : null;
    }

    /**
     * @return the source partition.
     */
    TopicPartition source()
    {
        return source;
    }

    /**
     * @return how many rows the previous owner committed after the checkpoint (to be regenerated and verified).
     */
    int committedAfterCheckpoint()
    {
        return committedAfterCheckpoint;
    }

    /**
     * @return the agent to run on the pipeline thread.
     */
    PipelineAgent agent()
    {
        return agent;
    }

    /**
     * @return the offset a consumer of this partition resumes at: after the last checkpoint's record, or -1 if none.
     */
    long resumeOffset()
    {
        return last.kafkaOffset() < 0 ? -1 : last.kafkaOffset() + 1;
    }

    /**
     * @return the pipeline's failure, or null.
     */
    Throwable failure()
    {
        return failure.get();
    }

    /**
     * Mirror one record: append it to the journal as an event, or send it to the rejected topic (inside the open
     * transaction, capped as {@link RejectedRecord} says) unless its rejection is already committed.
     *
     * @param record a record of this partition, in offset order.
     */
    void mirror(final ConsumerRecord<byte[], byte[]> record)
    {
        final String table = TableRecords.table(record.headers());
        if (table != null)
        {
            mirrorRow(record, table);
            return;
        }
        final long offset = decoder.append(record.key(), record.value(), journal);
        if (offset >= 0)
        {
            if (batched)
            {
                unwritten.addLong(record.offset());
                settle();
            }
            else
            {
                offsets.add(offset, record.offset());
            }
            mirrored++;
        }
        else if (record.offset() > rejectedThrough)
        {
            lastReject = producer.send(RejectedRecord.of(rejectedTopic, rejectedPartition, record, decoder.rejection()));
            rejectedThrough = record.offset();
            rejected++;
        }
        lastMirrored = record.offset();
        readWritten();
    }

    /**
     * Mirror a reference-table row after the events before it, or send it to the rejected topic as {@link #mirror}
     * does.
     */
    private void mirrorRow(final ConsumerRecord<byte[], byte[]> record, final String table)
    {
        final int index = tableRows == null ? -1 : tableRows.table(table);
        final long offset;
        if (index < 0)
        {
            offset = -1;
        }
        else
        {
            if (batched)
            {
                journal.batch().flush(); // the events before the row, before it
                settle();
            }
            offset = tableRows.mirror(index, record.value(), record.offset(), journal);
        }
        if (offset >= 0)
        {
            offsets.add(offset, record.offset());
        }
        else if (record.offset() > rejectedThrough)
        {
            final String reason = index < 0 ? "a row of table " + table + ", which this run does not declare" : tableRows.rejection();
            lastReject = producer.send(RejectedRecord.of(rejectedTopic, rejectedPartition, record, reason));
            rejectedThrough = record.offset();
            rejected++;
        }
        lastMirrored = record.offset();
        readWritten();
    }

    /**
     * Write the events mirrored since the last call that wait in the journal's batch, as one document: the pipeline
     * reads them from then on. Called after each poll's records of the partition.
     */
    void flush()
    {
        if (batched)
        {
            journal.batch().flush();
            settle();
        }
        if (idle != null)
        {
            idle.active(System.nanoTime());
        }
        readWritten();
    }

    /**
     * With tables, read the times of what was just written to the journal, on this thread, before another document is
     * written: the journal's retention never removes a cycle holding a document the times have not read.
     */
    private void readWritten()
    {
        if (times != null)
        {
            times.readWritten();
        }
    }

    /**
     * Append a heartbeat to the journal if the partition had no record for the idle timeout ({@link IdleHeartbeat}),
     * unless an earlier heartbeat still waits for a checkpoint that covers it. From then on no output of the
     * partition is sent until the pipeline's checkpoint that covers the heartbeat (it takes one after each) is ready,
     * and that checkpoint is shipped in the transaction that commits the outputs sent then: a committed output never
     * depends on a heartbeat its partition's committed checkpoint does not cover, so a takeover reproduces it, and an
     * aborted transaction leaves the new owner to decide again.
     *
     * @param now the time, ns ({@link System#nanoTime()}).
     * @return true if a heartbeat was appended.
     */
    boolean heartbeatIfIdle(final long now)
    {
        if (idle == null || heartbeat >= 0 || mustShip || !idle.quiet(now))
        {
            return false;
        }
        final long time = idle.due(now, watermark());
        if (time < 0)
        {
            return false;
        }
        heartbeat = journal.appendHeartbeat(time);
        idle.appended(now);
        readWritten();
        return true;
    }

    /** @return the pipeline's published watermark, or {@link Long#MIN_VALUE} before its run has started. */
    private long watermark()
    {
        try
        {
            return pipeline.metrics().watermark();
        }
        catch (final IllegalStateException notStarted)
        {
            return Long.MIN_VALUE;
        }
    }

    /**
     * Map the events the journal's batch has written (when it filled, at {@link #flush}, or before another document)
     * to their Kafka offsets: a written document's events have consecutive offsets, ending at the batch's last.
     */
    private void settle()
    {
        final int pending = journal.batch().pending();
        final int written = unwritten.size() - pending;
        if (written == 0)
        {
            return;
        }
        if (pending != 0)
        {
            throw new IllegalStateException(source + ": " + written + " of " + unwritten.size() + " events of the batch were written");
        }
        final long first = journal.batch().lastOffset() - written + 1;
        for (int i = 0; i < written; i++)
        {
            offsets.add(first + i, unwritten.getLong(i));
        }
        unwritten.clear();
    }

    /**
     * Send the outputs the pipeline wrote since the last call, inside the open transaction.
     *
     * @param budget the most outputs to read.
     * @return how many were read.
     * @throws DeterminismException if an output already committed is regenerated differently.
     */
    int deliver(final int budget)
    {
        int read = 0;
        if (heartbeat >= 0)
        {
            promote();
            if (ready == null || readyCovers.sourceOffset() < heartbeat)
            {
                return 0; // what the pipeline wrote since the heartbeat may depend on it: held until a checkpoint covers it
            }
            heartbeat = -1;
            mustShip = true;
            // every output that checkpoint covers, whatever the budget: it can then be shipped at the next commit
            final long position = readyCovers.outputPosition();
            while (!delivered(position) && outputs.next(this) != 0)
            {
                read++;
            }
        }
        while (read < budget && outputs.next(this) != 0)
        {
            read++;
        }
        return read;
    }

    @Override
    public void onOutput(final OutputDecoder output)
    {
        final long sequence = nextSequence++;
        if (positions.isEmpty())
        {
            firstSequence = sequence;
        }
        positions.addLong(outputs.lastReadPosition());
        final String value = rows.value(output);
        if (sequence <= committedThrough)
        {
            final CommittedRow row = committed.remove(sequence);
            if (row == null || !row.value().equals(value))
            {
                throw new DeterminismException("output " + sequence + " of " + source + " is regenerated as [" + value + "], but ["
                    + (row == null ? "nothing" : row.value()) + "] was committed: the partition was not re-read as it was first read");
            }
            knownOffsets.addLong(row.offset());
            sends.add(null);
            verified++;
            return;
        }
        final boolean result = output.isResult();
        final long sourceOffset = result ? output.result().sourceOffset() : output.late().offset();
        final String key = rows.key(output);
        final ProducerRecord<byte[], byte[]> out = new ProducerRecord<>(outputTopic, outputPartition,
            key == null ? null : key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
        OutputHeaders.put(out.headers(), OutputHeaders.SOURCE, sourceText);
        final long followed = offsets.kafkaOffset(sourceOffset); // -1 for a heartbeat's row with no record mirrored since the takeover
        OutputHeaders.put(out.headers(), OutputHeaders.OFFSET, Long.toString(followed < 0 ? last.kafkaOffset() : followed));
        OutputHeaders.put(out.headers(), OutputHeaders.SEQUENCE, Long.toString(sequence));
        OutputHeaders.put(out.headers(), OutputHeaders.KIND, result ? "result" : "late");
        sends.add(producer.send(out));
        knownOffsets.addLong(-1);
        produced++;
    }

    /**
     * Send the newest checkpoint the pipeline has written, inside the open transaction, once every output it covers
     * has been delivered.
     *
     * @param topic the checkpoint topic.
     * @return true if a checkpoint was sent.
     */
    boolean shipIfReady(final CheckpointTopic topic)
    {
        promote();
        if (ready == null)
        {
            return false;
        }
        final CheckpointPayload covered = readyCovers;
        final long position = covered.outputPosition();
        final long outputsCovered;
        long outputsFrom = last.outputsFrom();
        int index = -1;
        if (position == OutputJournal.NONE)
        {
            outputsCovered = restoredOutputs;
        }
        else if (position == shippedPosition)
        {
            outputsCovered = shippedSequence;
        }
        else
        {
            index = positions.indexOf(position);
            if (index < 0)
            {
                return false; // its outputs are not all delivered yet
            }
            outputsCovered = firstSequence + index;
            outputsFrom = outputOffset(index) + 1;
        }
        // a checkpoint that covers a heartbeat covers the records before it; none mirrored since the takeover: the last's
        final long mapped = covered.sourceOffset() < 0 ? -1 : offsets.kafkaOffset(covered.sourceOffset());
        final long kafkaOffset = mapped < 0 ? last.kafkaOffset() : mapped;
        final long rejectsFrom = lastReject == null ? last.rejectsFrom() : metadata(lastReject).offset() + 1;
        final PartitionCheckpoint checkpoint = new PartitionCheckpoint(source.topic(), source.partition(), kafkaOffset, outputsCovered,
            outputsFrom, rejectedThrough, rejectsFrom, outputPartitions, rejectedPartitions, journal.dictionaries().definitions(),
            keyColumns, tuples == null ? NO_TUPLES : tuples.tuplesThroughEnd(),
            tableRows == null ? PartitionTables.NONE : tableRows.through(kafkaOffset, times.maxTimeThrough(covered.sourceOffset())), ready);
        topic.send(producer, checkpoint);
        rows.releasePassedCycles();
        if (index >= 0)
        {
            // the outputs before it are delivered: the mirror's retention may remove the cycles wholly before it
            DeliveryPositions.advance(pipelineRoot, DELIVERY_RECORD, sourceText, position, System.currentTimeMillis());
            positions = OffsetMap.tail(positions, index + 1);
            knownOffsets = OffsetMap.tail(knownOffsets, index + 1);
            sends.subList(0, index + 1).clear();
            firstSequence = outputsCovered + 1;
            shippedPosition = position;
            shippedSequence = outputsCovered;
        }
        if (covered.sourceOffset() >= 0)
        {
            offsets.trimBefore(covered.sourceOffset());
            if (times != null)
            {
                times.trimBefore(covered.sourceOffset());
            }
        }
        last = checkpoint;
        ready = null;
        mustShip = false;
        if (heartbeat >= 0 && covered.sourceOffset() >= heartbeat)
        {
            heartbeat = -1; // covered, and no output after it: nothing was held
        }
        shipped++;
        shippedAtMillis = System.currentTimeMillis();
        return true;
    }

    /** Take the newest checkpoint the pipeline published as the one to ship, unless the one ready must be shipped first. */
    private void promote()
    {
        if (mustShip)
        {
            return;
        }
        final byte[] fresh = published.getAndSet(null);
        if (fresh != null)
        {
            ready = fresh;
            readyCovers = CheckpointPayload.of(fresh);
        }
    }

    /** @return true if every output through an output position was delivered (or shipped) */
    private boolean delivered(final long position)
    {
        return position == OutputJournal.NONE || position == shippedPosition || positions.indexOf(position) >= 0;
    }

    private long outputOffset(final int index)
    {
        final long known = knownOffsets.getLong(index);
        return known >= 0 ? known : metadata(sends.get(index)).offset();
    }

    private RecordMetadata metadata(final Future<RecordMetadata> send)
    {
        if (!send.isDone())
        {
            producer.flush();
        }
        try
        {
            return send.get();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a send", ex);
        }
        catch (final ExecutionException ex)
        {
            throw new KafkaException("a send of " + source + " failed: " + ex.getCause(), ex.getCause());
        }
    }

    /**
     * @param into where to add this partition's status line.
     * @param lag  the consumer's lag on it, or -1 if unknown.
     */
    void status(final StringBuilder into, final long lag)
    {
        into.append(source.topic()).append('-').append(source.partition())
            .append(" committed=").append(resumeOffset())
            .append(" lag=").append(lag)
            .append(" mirrored-through=").append(lastMirrored)
            .append(" watermark=").append(pipeline.metrics().watermark())
            .append(" heartbeats=").append(idle == null ? 0 : idle.count())
            .append(" events=").append(mirrored)
            .append(" rejected=").append(rejected)
            .append(" outputs=").append(nextSequence - 1)
            .append(" produced=").append(produced)
            .append(" verified=").append(verified)
            .append(" checkpoint-offset=").append(last.kafkaOffset())
            .append(" checkpoint-outputs=").append(last.outputs())
            .append(" checkpoints-shipped=").append(shipped)
            .append(" checkpoint-at=").append(shippedAtMillis == 0 ? "-" : Instant.ofEpochMilli(shippedAtMillis).toString())
            .append('\n');
    }

    /**
     * @return events mirrored since the task started.
     */
    long mirrored()
    {
        return mirrored;
    }

    /**
     * @return outputs sent since the task started.
     */
    long produced()
    {
        return produced;
    }

    /**
     * Release the pipeline (its agent must be off the pipeline thread), the journal and its files. The journal's
     * directory is deleted: the next owner rebuilds it from Kafka.
     */
    @Override
    public void close()
    {
        try
        {
            pipeline.close();
        }
        catch (final RuntimeException ex)
        {
            failure.compareAndSet(null, ex);
        }
        finally
        {
            rows.close();
            if (times != null)
            {
                times.close();
            }
            if (tuples != null)
            {
                tuples.close();
            }
            outputs.close();
            journal.close();
            deleteQuietly(directory);
        }
    }

    /** Delete a tree as far as possible: what cannot be deleted now is left for the next takeover to try again. */
    private static void deleteQuietly(final Path directory)
    {
        if (!Files.exists(directory))
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory))
        {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
            {
                try
                {
                    Files.deleteIfExists(path);
                }
                catch (final IOException ex)
                {
                    LOG.debug("cannot delete {} now: {}", path, ex.toString());
                }
            }
        }
        catch (final IOException | UncheckedIOException ex)
        {
            LOG.debug("cannot delete {} now: {}", directory, ex.toString());
        }
    }
}
