/* The C baseline for the D-Bus benchmark: the same calls as the Swift suite,
 * written directly on libdbus.
 *
 *   dbus_baseline ADDRESS BLOCKING_CALLS PIPELINED_CALLS WINDOW [DESTINATION]
 *
 * A server thread owns one connection and answers org.example.Bench.Echo(s) -> s
 * from a read_write_dispatch loop; the main thread owns a second connection and
 * makes BLOCKING_CALLS calls with dbus_connection_send_with_reply_and_block,
 * then PIPELINED_CALLS calls with at most WINDOW in flight. With DESTINATION,
 * it starts no server and calls that bus name instead. It prints
 *   blocking_ns_per_call <n>
 *   pipelined_calls_per_second <n>
 */
#include <dbus/dbus.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *PATH = "/org/example/Bench";
static const char *INTERFACE = "org.example.Bench";

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static DBusConnection *open_connection(const char *address) {
  DBusError error;
  dbus_error_init(&error);
  DBusConnection *connection = dbus_connection_open_private(address, &error);
  if (!connection || !dbus_bus_register(connection, &error)) {
    fprintf(stderr, "dbus_baseline: %s\n", error.message ? error.message : "cannot connect");
    exit(1);
  }
  return connection;
}

static DBusHandlerResult serve(DBusConnection *connection, DBusMessage *message, void *data) {
  (void)data;
  if (!dbus_message_is_method_call(message, INTERFACE, "Echo"))
    return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
  const char *text = NULL;
  DBusMessageIter in;
  if (!dbus_message_iter_init(message, &in) || dbus_message_iter_get_arg_type(&in) != DBUS_TYPE_STRING) {
    DBusMessage *error = dbus_message_new_error(message, DBUS_ERROR_INVALID_ARGS, "expected s");
    dbus_connection_send(connection, error, NULL);
    dbus_message_unref(error);
    return DBUS_HANDLER_RESULT_HANDLED;
  }
  dbus_message_iter_get_basic(&in, &text);
  DBusMessage *reply = dbus_message_new_method_return(message);
  DBusMessageIter out;
  dbus_message_iter_init_append(reply, &out);
  dbus_message_iter_append_basic(&out, DBUS_TYPE_STRING, &text);
  dbus_connection_send(connection, reply, NULL);
  dbus_message_unref(reply);
  return DBUS_HANDLER_RESULT_HANDLED;
}

static void *server_thread(void *argument) {
  DBusConnection *connection = argument;
  while (dbus_connection_read_write_dispatch(connection, -1)) {
  }
  return NULL;
}

static DBusMessage *make_call(const char *destination) {
  DBusMessage *call = dbus_message_new_method_call(destination, PATH, INTERFACE, "Echo");
  const char *text = "payload";
  DBusMessageIter iter;
  dbus_message_iter_init_append(call, &iter);
  dbus_message_iter_append_basic(&iter, DBUS_TYPE_STRING, &text);
  return call;
}

static long pipelined_replies;

static DBusHandlerResult count_reply(DBusConnection *connection, DBusMessage *message, void *data) {
  (void)connection;
  (void)data;
  if (dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_RETURN) {
    const char *text = NULL;
    DBusMessageIter iter;
    if (dbus_message_iter_init(message, &iter) && dbus_message_iter_get_arg_type(&iter) == DBUS_TYPE_STRING)
      dbus_message_iter_get_basic(&iter, &text);
    if (text) pipelined_replies++;
    return DBUS_HANDLER_RESULT_HANDLED;
  }
  return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
}

int main(int argc, char **argv) {
  if (argc != 5 && argc != 6) {
    fprintf(stderr, "usage: dbus_baseline ADDRESS BLOCKING_CALLS PIPELINED_CALLS WINDOW [DESTINATION]\n");
    return 64;
  }
  const char *address = argv[1];
  long blocking = atol(argv[2]), pipelined = atol(argv[3]), window = atol(argv[4]);
  dbus_threads_init_default();

  const char *destination = argc == 6 ? argv[5] : NULL;
  if (!destination) {
    DBusConnection *server = open_connection(address);
    dbus_connection_add_filter(server, serve, NULL, NULL);
    destination = dbus_bus_get_unique_name(server);
    pthread_t thread;
    pthread_create(&thread, NULL, server_thread, server);
  }

  DBusConnection *client = open_connection(address);
  DBusError error;
  dbus_error_init(&error);

  double start = now_ns();
  for (long i = 0; i < blocking; i++) {
    DBusMessage *call = make_call(destination);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(client, call, 25000, &error);
    dbus_message_unref(call);
    if (!reply) {
      fprintf(stderr, "dbus_baseline: %s\n", error.message);
      return 1;
    }
    const char *text = NULL;
    if (!dbus_message_get_args(reply, &error, DBUS_TYPE_STRING, &text, DBUS_TYPE_INVALID)) return 1;
    dbus_message_unref(reply);
  }
  double blocking_ns = (now_ns() - start) / (double)blocking;

  dbus_connection_add_filter(client, count_reply, NULL, NULL);
  long sent = 0;
  start = now_ns();
  while (pipelined_replies < pipelined) {
    while (sent < pipelined && sent - pipelined_replies < window) {
      DBusMessage *call = make_call(destination);
      dbus_connection_send(client, call, NULL);
      dbus_message_unref(call);
      sent++;
    }
    dbus_connection_read_write_dispatch(client, -1);
  }
  double seconds = (now_ns() - start) / 1e9;

  printf("blocking_ns_per_call %.0f\n", blocking_ns);
  printf("pipelined_calls_per_second %.0f\n", pipelined / seconds);
  fflush(stdout);
  _exit(0);
}
