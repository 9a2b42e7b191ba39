module.exports = require('../jest.web-project.js')(__dirname, 'remote-operator');
