# The covered site of scripts/first-day: a static HTTPS server on 127.0.0.1 for /srv/site, with the
# certificate made for it (instagram.com). Prints its port, then serves until it is ended.
import http.server
import os
import ssl

os.chdir("/srv/site")


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain("/srv/site.crt", "/srv/site.key")
server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
