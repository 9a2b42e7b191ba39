const { buildApp } = require('./dist/app.js');
const { loadConfig } = require('./dist/config.js');
const { generateKeyPairSync } = require('crypto');
const fs=require('fs');const path=require('path');
(async()=>{
 const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
 const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
 const tpl=fs.mkdtempSync('/dev/shm/st-');
 // first start makes template
 let cfg=loadConfig({NODE_ENV:'test',LOG_LEVEL:'silent',RSA_PRIVATE_KEY:pem,DATA_DIR:path.join(tpl,'t')});
 let t=Date.now(); let app=await buildApp(cfg,{logger:false}); await app.ready(); await app.close(); console.log('first',Date.now()-t);
 for(let i=0;i<6;i++){const d=path.join(tpl,'c'+i);fs.cpSync(path.join(tpl,'t'),d,{recursive:true});
  cfg=loadConfig({NODE_ENV:'test',LOG_LEVEL:'silent',RSA_PRIVATE_KEY:pem,DATA_DIR:d});
  t=Date.now(); app=await buildApp(cfg,{logger:false}); const b=Date.now()-t; await app.ready(); const r=Date.now()-t; await app.close(); console.log('build',b,'ready',r,'closed',Date.now()-t);}
 fs.rmSync(tpl,{recursive:true});
})();
