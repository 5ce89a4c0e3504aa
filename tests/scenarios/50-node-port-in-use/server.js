// The voice service's HTTP front end on a loopback port.  When the port
// is taken, listen() emits 'error' and nothing handles it: node prints
// its uncaught-error dump (the headline, the stack, then the error's
// fields: code, errno, syscall, address, port) and exits 1.
const http = require('http');

const port = Number(process.argv[2]);
http.createServer((req, res) => res.end('ok\n')).listen(port, '127.0.0.1', () => {
	console.log(`listening on 127.0.0.1:${port}`);
});
